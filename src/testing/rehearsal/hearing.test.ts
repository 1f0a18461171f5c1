// The rehearsal server hears by content: speech it synthesised (through the openai SDK's speech call) and a
// dataset's recording, also degraded by an acoustic preset it never saw, are heard as their words; sound it does
// not know is heard as unintelligible, and the assistant asks again instead of acting (never a made-up pass).
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  assistantModelsFromSettings,
  buildAssistantPlan,
  buildSessionStart,
} from '../../assistants/frontend/index.ts'
import { applyRealism } from '../../audio/effects/index.ts'
import { concatPcm16, pcm16FromBytes, pcm16ToBase64, silence } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { readMonoWavFile } from '../../audio/wav.ts'
import { DEFAULT_MODELS } from '../../config/defaults.ts'
import type { ModelSettings } from '../../config/index.ts'
import { assistantVisibleInput, loadDataset } from '../../scenarios/index.ts'
import { type Frame, RawLiveClient } from '../live-server/test-support.ts'
import { NOT_UNDERSTOOD_ANSWER } from './assistant-players.ts'
import { UNINTELLIGIBLE } from './caller-listener.ts'
import { type RehearsalServer, startRehearsalServer } from './server.ts'
import { SpeechCatalogue } from './speech-catalogue.ts'

const ROOT = join(import.meta.dirname, '../../..')
const CRAWL = join(ROOT, 'scenarios/crawl/restaurant.json')
const WALK = join(ROOT, 'scenarios/walk/restaurant.json')

let server: RehearsalServer
beforeAll(async () => {
  server = await startRehearsalServer({ datasets: [CRAWL] })
})
afterAll(async () => {
  await server?.close()
})

/** Streams `samples` after 200 ms of silence, then silence, in 20 ms appends, as a live run does. */
function stream(client: RawLiveClient, samples: Int16Array, trailingMs = 2_000): void {
  const audio = concatPcm16([silence(200), samples, silence(trailingMs)])
  for (let at = 0; at < audio.length; at += 480) {
    client.send({ type: 'session.input_audio.append', audio: pcm16ToBase64(audio.subarray(at, at + 480)) })
  }
}

const captionsOf = (events: Frame[], type: string) =>
  events
    .filter((event) => event.type === type)
    .map((event) => String(event.delta))
    .join('')

/** A session configured as the harness configures the responses assistant of one CRAWL scenario. */
async function scenarioSession(scenarioId: string): Promise<RawLiveClient> {
  const dataset = await loadDataset(CRAWL)
  const scenario = dataset.scenarios.find((candidate) => candidate.id === scenarioId)
  if (scenario === undefined) throw new Error(`no scenario ${scenarioId}`)
  const plan = buildAssistantPlan(assistantVisibleInput(scenario), {
    architecture: 'responses',
    models: assistantModelsFromSettings(DEFAULT_MODELS as ModelSettings),
  })
  const client = await RawLiveClient.connect(server.url, server.env.OPENAI_API_KEY ?? 'any')
  await client.start(buildSessionStart(plan) as unknown as Record<string, unknown>)
  return client
}

describe('hearing by content', () => {
  it('hears the words of speech it synthesised for the openai SDK, and the assistant acts on them', async () => {
    const text = 'What are your opening hours on Sunday?'
    const openai = new OpenAI({ apiKey: 'any', baseURL: server.baseURL })
    const response = await openai.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      voice: 'marin',
      input: text,
      response_format: 'pcm',
    })
    const samples = pcm16FromBytes(new Uint8Array(await response.arrayBuffer()))
    const client = await scenarioSession('crawl_020_hours')
    stream(client, samples)
    await client.waitFor((event) => event.type === 'session.output_transcript.delta', 'the answer')
    expect(captionsOf(client.events, 'session.input_transcript.delta')).toBe(text)
    client.close()
  })

  it('recognises a recording degraded by a preset it never saw, by its nearest energy envelope', async () => {
    const catalogue = new SpeechCatalogue()
    const walk = await loadDataset(WALK)
    for (const scenario of walk.scenarios) {
      const recording = scenario.input.recordings[0]
      if (recording === undefined || recording.condition !== 'clean') continue
      const { samples } = await readMonoWavFile(recording.resolvedPath)
      catalogue.add(samples, { text: scenario.input.text, speech: null })
    }
    const hours = walk.scenarios.find((scenario) => scenario.id === 'walk_020_hours')
    const file = hours?.input.recordings[0]?.resolvedPath ?? ''
    const { samples } = await readMonoWavFile(file)
    for (const condition of ['noisy', 'telephony', 'echo']) {
      const degraded = await applyRealism(samples, { condition, seed: 7 })
      const heard = catalogue.recognise(concatPcm16([silence(200), degraded.samples, silence(800)]))
      expect(heard, condition).toMatchObject({ text: hours?.input.text, how: 'envelope' })
    }
    // The clean recording itself is known exactly, placed after the lead-in.
    expect(catalogue.recognise(concatPcm16([silence(200), samples, silence(800)]))).toMatchObject({
      text: hours?.input.text,
      how: 'exact',
    })
  })

  it('does not recognise speech nobody said, nor noise', () => {
    const catalogue = new SpeechCatalogue()
    for (const text of ['Book a table for two tonight.', 'What time do you close on Friday?']) {
      catalogue.add(syntheticSpeech(text), { text, speech: null })
    }
    expect(catalogue.recognise(syntheticSpeech('Please cancel reservation R-100 for me.'))).toBeNull()
    let seed = 1
    const noise = new Int16Array(48_000).map(() => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return (seed % 4_000) - 2_000
    })
    expect(catalogue.recognise(noise)).toBeNull()
  })

  it('hears unknown speech as unintelligible, and the assistant asks again without delegating', async () => {
    const client = await scenarioSession('crawl_001_booking_complete_request')
    // Words no dataset row says, in the synthetic voice: nothing the server knows.
    stream(client, syntheticSpeech('Could you book the usual for me and my colleagues?'), 6_000)
    await client.waitFor(
      (event) =>
        event.type === 'session.output_transcript.delta' &&
        captionsOf(client.events, event.type) === NOT_UNDERSTOOD_ANSWER,
      'the request to repeat',
    )
    expect(captionsOf(client.events, 'session.input_transcript.delta')).toBe(UNINTELLIGIBLE)
    expect(client.events.some((event) => event.type === 'session.delegation.created')).toBe(false)
    client.close()
  })
})
