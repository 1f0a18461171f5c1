// The simulated caller as a participant: a second GPT-Live session started with the caller brief (brief.ts), in a
// voice that is never the assistant's, with its own managed Responses reasoning backend (§6: effort from the
// settings, output cap 1024, verbosity low) and no application tools. It is told nothing but the brief.
import type { BuiltInVoice } from 'openai/resources/live/live'
import { SESSION_AUDIO_FORMAT } from '../../../assistants/frontend/session-start.ts'
import type { REASONING_EFFORTS } from '../../../config/schema.ts'
import { type LiveEndpointSettingsInput, LiveSession, type SessionConfig } from '../../../live/index.ts'
import type { CallerBrief } from '../brief.ts'

/** The caller's reasoning backend; null runs a frontend-only caller (any caller delegation is then invalid). */
export interface CallerBackend {
  model: string
  reasoningEffort: (typeof REASONING_EFFORTS)[number]
}

/** §6: the caller backend's output cap. */
export const CALLER_BACKEND_MAX_OUTPUT_TOKENS = 1024

/**
 * Voices the caller falls back to, in order, when the persona's voice is the assistant's: distinct timbres, so
 * a listener (and the speech metrics) can tell the two parties apart.
 */
const FALLBACK_VOICES: readonly BuiltInVoice[] = ['coral', 'sage', 'verse', 'ash', 'ballad']

const sameVoice = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

/** The persona's voice unless it is the assistant's; then the first fallback that is not. Deterministic. */
export function callerVoiceFor(personaVoice: string, assistantVoice: string): string {
  const candidates = [personaVoice, ...FALLBACK_VOICES]
  const voice = candidates.find((candidate) => !sameVoice(candidate, assistantVoice))
  // FALLBACK_VOICES holds five different names, so at least four of them differ from any assistant voice.
  return voice as string
}

export interface CallerSessionSettings {
  liveModel: string
  /** The assistant's voice, which the caller must not share. */
  assistantVoice: string
  backend: CallerBackend | null
}

/** The caller's `session.start` session: the brief, its voice, its backend; no tools, no initial input. */
export function callerSessionConfig(brief: CallerBrief, settings: CallerSessionSettings): SessionConfig {
  const config: SessionConfig = {
    model: settings.liveModel,
    instructions: brief.instructions,
    audio: {
      format: { ...SESSION_AUDIO_FORMAT },
      output: { voice: callerVoiceFor(brief.voice, settings.assistantVoice) },
    },
  }
  const { backend } = settings
  config.delegation =
    backend === null
      ? { type: 'client' }
      : {
          type: 'responses',
          responses: {
            model: backend.model,
            instructions: brief.backendInstructions,
            reasoning: { effort: backend.reasoningEffort },
            max_output_tokens: CALLER_BACKEND_MAX_OUTPUT_TOKENS,
            text: { verbosity: 'low' },
          },
        }
  return config
}

/**
 * A caller session, not yet started: the driver subscribes to it (and to its sent frames) before `start`, so
 * nothing the caller does escapes the record.
 */
export function createCallerSession(
  connection: LiveEndpointSettingsInput,
  clock: () => number,
  signal?: AbortSignal,
): LiveSession {
  return new LiveSession(connection, {
    clock,
    eventIdPrefix: 'caller_evt_',
    // Its voice goes to the relay through the driver's listener, subscribed before start; nothing reads it later.
    keepOutputAudio: false,
    ...(signal === undefined ? {} : { signal }),
  })
}
