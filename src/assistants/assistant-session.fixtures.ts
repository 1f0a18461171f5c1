// Shared by the assistant-session and leak-boundary tests: open an offline assistant that hears its request,
// feed it silence, and read what it said.
import { durationMs, silence } from '../audio/pcm.ts'
import { syntheticSpeech } from '../audio/synthetic-voice.ts'
import type { ReceivedLiveEvent } from '../live/index.ts'
import type { AssistantVisibleInput } from '../scenarios/visible.ts'
import type { OfflineLiveServer } from '../testing/live-server/index.ts'
import type { AssistantArchitecture } from './architectures/index.ts'
import {
  type AssistantUnderTest,
  openAssistantUnderTest,
  registerOfflineAssistant,
} from './assistant-session.ts'
import type { AssistantModels } from './frontend/index.ts'
import type { JsonObject } from './offline-behaviour.ts'

export const models: AssistantModels = {
  liveModel: 'gpt-live-1',
  voice: 'marin',
  backendModel: 'gpt-5.6-terra',
  backendReasoningEffort: 'none',
  backendMaxOutputTokens: 1000,
  backendVerbosity: 'low',
}

export function visibleRequest(
  inputText: string,
  overrides: Partial<AssistantVisibleInput> = {},
): AssistantVisibleInput {
  return {
    scenarioId: 'session_case',
    interaction: 'single_turn',
    inputText,
    context: null,
    initialState: { reservations: [], authorized_reservation_ids: [] },
    ...overrides,
  }
}

export interface OpenOfflineOptions {
  /** The application's business facts, private overrides included (default: the copy's facts.json). */
  facts?: JsonObject
  /** Connect here instead of the server itself (e.g. a recording proxy in front of it). */
  baseURL?: string
}

/** Opens an offline assistant that hears `visible.inputText` spoken from 0 ms. */
export async function openOffline(
  target: OfflineLiveServer,
  visible: AssistantVisibleInput,
  architecture: AssistantArchitecture,
  options: OpenOfflineOptions = {},
): Promise<{ assistant: AssistantUnderTest; speech: Int16Array }> {
  const speech = syntheticSpeech(visible.inputText)
  const endMs = Math.round(durationMs(speech.length))
  const token = registerOfflineAssistant(target, visible, architecture, [
    { text: visible.inputText, startMs: 0, endMs },
  ])
  const assistant = await openAssistantUnderTest({
    visibleInput: visible,
    architecture,
    models,
    ...(options.facts === undefined ? {} : { facts: options.facts }),
    connection: { apiKey: token, baseURL: options.baseURL ?? target.baseURL, allowInsecureLoopback: true },
  })
  return { assistant, speech }
}

/** Sends `ms` of caller silence in 100 ms appends. */
export function sendSilence(assistant: AssistantUnderTest, ms: number): void {
  for (let sent = 0; sent < ms; sent += 100) assistant.sendAudio(silence(100))
}

export const outputTranscript = (events: readonly ReceivedLiveEvent[]) =>
  events.map(({ event }) => (event.type === 'session.output_transcript.delta' ? event.delta : '')).join('')

/**
 * Feeds caller silence in 100 ms appends, letting the loopback round-trip run between them, until `done()` or
 * `maxAudioMs` of audio was sent. The offline server's clock is the received audio, so work that waits on the
 * session timeline (acknowledgements, speech) needs audio to keep flowing.
 */
export async function pumpSilenceUntil(
  assistant: AssistantUnderTest,
  done: () => boolean,
  maxAudioMs = 20_000,
): Promise<boolean> {
  for (let sent = 0; sent < maxAudioMs; sent += 100) {
    if (done()) return true
    if (!assistant.sendAudio(silence(100))) return done()
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  return done()
}
