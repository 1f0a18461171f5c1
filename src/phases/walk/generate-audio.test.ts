// walk generate-audio's core: filling a reference-toolkit WALK dataset shipped without its WAVs (their
// provenance untouched, ours beside it, the dataset then running unchanged), condition variation with
// --append/--force, refusals that leave everything as it was, and the two speech engines. OpenAI text-to-speech
// is the real openai client against the loopback test server; espeak-ng is Debian's, skipped when absent.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AudioRealismError } from '../../audio/effects/index.ts'
import { readMonoWavFile } from '../../audio/wav.ts'
import { assistantVisibleInput, loadDataset, type Scenario } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { type ResponsesServer, startResponsesServer } from '../../testing/responses-server/server.ts'
import { runScenario } from '../engine/run-scenario.ts'
import { generateAudio } from './generate-audio.ts'
import { walkPhase } from './index.ts'
import { OurGenerationSchema, SpeechIntervalsSchema } from './provenance.ts'
import { SpeechEngineError } from './speech/engine.ts'
import { espeakEngine, espeakVersion } from './speech/espeak.ts'
import { openAiEngine } from './speech/openai.ts'
import {
  crawlRow,
  offlineWalkEnv,
  offlineWalkSettings,
  temporaryFolder,
  writeDataset,
} from './walk.test-helpers.ts'

let speechServer: ResponsesServer
let liveServer: OfflineLiveServer
beforeAll(async () => {
  speechServer = await startResponsesServer()
  liveServer = await startOfflineLiveServer()
})
afterAll(async () => {
  await speechServer.close()
  await liveServer.close()
})

async function engine() {
  return openAiEngine({
    apiKey: undefined,
    client: new OpenAI({ apiKey: 'test', baseURL: speechServer.baseURL, maxRetries: 0 }),
    cacheDir: await temporaryFolder(),
  })
}

/** Their noisy variant, as the reference toolkit writes it: seed 45 and its own noise level. */
const THEIR_GENERATION = {
  source: 'synthetic_speech',
  audio_realism: {
    preset: 'noisy',
    condition: 'noisy',
    seed: 45,
    sample_rate: 24000,
    effects: {
      telephony: false,
      telephony_sample_rate_hz: null,
      telephony_band_hz: null,
      telephony_codec: null,
      noise_rms: 900.0,
      background_speech: null,
      background_gain: null,
      echo_delay_ms: null,
      echo_decay: null,
      packet_loss_rate: 0.0,
      packet_loss_burst: 1,
      cough_every_ms: null,
      non_directed_every_ms: null,
    },
    background_provenance: null,
    observations: {
      processed_ticks: 9,
      processed_frames: 230,
      lost_ticks: 0,
      lost_frames: 0,
      vocal_tic_events: 0,
      non_directed_events: 0,
    },
  },
  tts_model: 'gpt-4o-mini-tts',
  tts_voice: 'coral',
  source_scenario_id: 'restaurant_020',
}

async function referenceDataset(): Promise<string> {
  const baseline = await crawlRow('crawl_020_hours')
  baseline.id = 'restaurant_020'
  baseline.input.recordings = [
    {
      id: 'caller_recording',
      path: 'audio/restaurant_020.wav',
      condition: 'clean',
      metadata: { language: 'en' },
    },
  ]
  const variant = await crawlRow('crawl_020_hours')
  variant.id = 'restaurant_020_noisy'
  variant.input.recordings = [
    {
      id: 'caller_recording',
      path: 'audio/restaurant_020_noisy.wav',
      condition: 'noisy',
      metadata: { generation: structuredClone(THEIR_GENERATION) },
    },
  ]
  return writeDataset([baseline, variant])
}

describe('walk generate-audio: filling a reference WALK dataset', () => {
  it('records every missing WAV, keeps their provenance as it is, writes ours beside it, and the dataset runs', async () => {
    const file = await referenceDataset()
    const report = await generateAudio({ dataset: file, engine: await engine() })
    expect(report.written.map((path) => path.slice(dirname(file).length))).toEqual([
      '/audio/restaurant_020.wav',
      '/audio/restaurant_020_noisy.wav',
    ])
    const dataset = await loadDataset(file)
    const [baseline, variant] = dataset.scenarios
    const theirs = variant?.input.recordings[0]?.metadata ?? {}
    expect(theirs.generation).toEqual(THEIR_GENERATION)
    const ours = theirs.live_evals as { generation: unknown; speech_intervals: unknown }
    const generation = OurGenerationSchema.parse(ours.generation)
    // Their seed and their noise level are what we recorded.
    expect(generation).toMatchObject({
      seed: 45,
      condition: 'noisy',
      source_scenario_id: 'restaurant_020',
      engine: 'openai',
    })
    expect(generation.audio_realism.effects.noise_rms).toBe(900)
    expect(SpeechIntervalsSchema.parse(ours.speech_intervals).length).toBeGreaterThan(0)
    // A baseline without a generation block gets ours in the usual place; its language stays.
    expect(baseline?.input.recordings[0]?.metadata).toMatchObject({
      language: 'en',
      generation: { source: 'synthetic_speech', condition: 'clean', source_scenario_id: 'restaurant_020' },
    })
    const requests = speechServer.requestsTo('POST', '/v1/audio/speech')
    expect(requests.at(-1)?.body).toMatchObject({
      model: 'gpt-4o-mini-tts',
      voice: 'coral',
      input: variant?.input.text,
    })

    for (const scenario of dataset.scenarios) {
      const env = await offlineWalkEnv(await offlineWalkSettings(file), liveServer, 'responses')
      const execution = await runScenario(walkPhase, scenario as Scenario, env, {
        application: env.architecture.createApplication(assistantVisibleInput(scenario as Scenario)),
      })
      expect(execution.row.status, `${scenario.id}: ${JSON.stringify(execution.failure)}`).toBe('passed')
    }
  })

  it('keeps WAVs that exist; --force records them again, byte for byte the same', async () => {
    const file = await referenceDataset()
    await generateAudio({ dataset: file, engine: await engine() })
    const wav = join(dirname(file), 'audio', 'restaurant_020_noisy.wav')
    const first = await readFile(wav)
    const datasetText = await readFile(file, 'utf8')
    const again = await generateAudio({ dataset: file, engine: await engine() })
    expect(again).toMatchObject({ written: [], kept: [expect.stringMatching(/restaurant_020\.wav$/), wav] })
    expect(await readFile(file, 'utf8')).toBe(datasetText)
    // Our bundled dataset is formatted by the repository's formatter: a fill with nothing to do leaves it so.
    await writeFile(file, datasetText.replace(/\n\s*/g, ''))
    const compact = await readFile(file, 'utf8')
    await generateAudio({ dataset: file, engine: await engine() })
    expect(await readFile(file, 'utf8')).toBe(compact)
    const forced = await generateAudio({ dataset: file, engine: await engine(), force: true })
    expect(forced.written).toHaveLength(2)
    expect(Buffer.compare(await readFile(wav), first)).toBe(0)
    expect(await readFile(file, 'utf8')).toBe(datasetText)
  })

  it('refuses to go past a WAV that is there but unusable, naming it, and changes nothing', async () => {
    const file = await referenceDataset()
    const before = await readFile(file, 'utf8')
    const folder = join(dirname(file), 'audio')
    await mkdir(folder)
    await writeFile(join(folder, 'restaurant_020.wav'), 'not a wav')
    await expect(generateAudio({ dataset: file, engine: await engine() })).rejects.toThrow(
      /restaurant_020\.wav.*--force records it again/s,
    )
    expect(await readFile(file, 'utf8')).toBe(before)
  })
})

describe('walk generate-audio: condition variation', () => {
  async function crawlDataset() {
    return writeDataset([
      await crawlRow('crawl_020_hours'),
      await crawlRow('crawl_013_cancel_authorized_r100'),
    ])
  }

  it('makes one row per source and condition, equal to its source except id and recording, seeds counting up', async () => {
    const input = await crawlDataset()
    const output = join(await temporaryFolder(), 'walk.json')
    const report = await generateAudio({
      dataset: input,
      outputDataset: output,
      engine: await engine(),
      conditions: ['noisy', 'echo'],
      seed: 7,
    })
    expect(report.rows).toBe(4)
    const rows = JSON.parse(await readFile(output, 'utf8')).scenarios as Record<string, unknown>[]
    expect(rows.map((row) => row.id)).toEqual([
      'crawl_020_hours_noisy',
      'crawl_020_hours_echo',
      'crawl_013_cancel_authorized_r100_noisy',
      'crawl_013_cancel_authorized_r100_echo',
    ])
    const source = await crawlRow('crawl_020_hours')
    const { id: _id, input: sourceInput, ...sourceRest } = source
    const [noisy] = rows as (typeof source)[]
    const { id: _noisyId, input: noisyInput, ...noisyRest } = noisy as typeof source
    const { recordings, ...noisyInputRest } = noisyInput as {
      recordings: { path: string; metadata: Record<string, unknown> }[]
    }
    expect(noisyRest).toEqual(sourceRest)
    expect(noisyInputRest).toEqual(sourceInput)
    expect(recordings[0]?.path).toBe('audio/crawl_020_hours_noisy.wav')
    const seeds = (await loadDataset(output)).scenarios.map(
      (row) => OurGenerationSchema.parse(row.input.recordings[0]?.metadata.generation).seed,
    )
    expect(seeds).toEqual([7, 8, 9, 10])
    await readMonoWavFile(join(dirname(output), 'audio', 'crawl_013_cancel_authorized_r100_echo.wav'))
  })

  it('adds to an existing dataset only with --append, replaces rows only with --force, and checks before recording', async () => {
    const input = await crawlDataset()
    const output = join(await temporaryFolder(), 'walk.json')
    const base = { dataset: input, outputDataset: output, scenarioIds: ['crawl_020_hours'] }
    await generateAudio({ ...base, engine: await engine(), conditions: ['clean'] })
    await expect(
      generateAudio({ ...base, engine: await engine(), conditions: ['telephony'] }),
    ).rejects.toThrow(/exists; --append adds the new rows to it, --force replaces it/)
    await generateAudio({ ...base, engine: await engine(), conditions: ['telephony'], append: true })
    const audio = join(dirname(output), 'audio')
    expect((await readdir(audio)).sort()).toEqual([
      'crawl_020_hours_clean.wav',
      'crawl_020_hours_telephony.wav',
    ])
    const before = await readFile(output, 'utf8')
    await expect(
      generateAudio({
        ...base,
        engine: await engine(),
        conditions: ['packet_loss', 'telephony'],
        append: true,
      }),
    ).rejects.toThrow(/already has "crawl_020_hours_telephony"; --force replaces them/)
    // Refused before anything was recorded: no packet_loss WAV, the dataset as it was.
    expect(await readdir(audio)).toHaveLength(2)
    expect(await readFile(output, 'utf8')).toBe(before)
    const replaced = await generateAudio({
      ...base,
      engine: await engine(),
      conditions: ['telephony'],
      append: true,
      force: true,
    })
    expect(replaced.rows).toBe(2)
  })

  it('refuses to append to an output that is not a dataset, naming it, before recording anything', async () => {
    const input = await crawlDataset()
    const folder = await temporaryFolder()
    const output = join(folder, 'walk.json')
    await writeFile(output, '{"schema_version": "1.0", "scenarios": {}}')
    await expect(
      generateAudio({
        dataset: input,
        outputDataset: output,
        scenarioIds: ['crawl_020_hours'],
        engine: await engine(),
        conditions: ['clean'],
        append: true,
      }),
    ).rejects.toThrow(output)
    expect(await readdir(folder)).toEqual(['walk.json'])
  })

  it('--vary-conditions gives each row one condition, cycling through the seven presets', async () => {
    const input = await crawlDataset()
    const output = join(await temporaryFolder(), 'walk.json')
    await generateAudio({
      dataset: input,
      outputDataset: output,
      engine: await engine(),
      varyConditions: true,
      seed: 41,
    })
    const rows = (await loadDataset(output)).scenarios
    expect(rows.map((row) => [row.id, row.input.recordings[0]?.condition])).toEqual([
      ['crawl_020_hours_clean', 'clean'],
      ['crawl_013_cancel_authorized_r100_noisy', 'noisy'],
    ])
  })

  it('refuses an unknown condition by name, listing the valid ones, before anything is written', async () => {
    const input = await crawlDataset()
    const output = join(await temporaryFolder(), 'walk.json')
    const refused = generateAudio({
      dataset: input,
      outputDataset: output,
      engine: await engine(),
      conditions: ['underwater'],
    })
    await expect(refused).rejects.toBeInstanceOf(AudioRealismError)
    await expect(refused).rejects.toThrow(
      /"underwater".*clean, noisy, telephony, background_speech, echo, packet_loss, realistic/,
    )
    await expect(readdir(dirname(output))).resolves.toEqual([])
  })
})

describe('speech engines', () => {
  it('a missing espeak-ng is an error naming the package to install', async () => {
    const missing = espeakEngine({ command: '/nonexistent/espeak-ng' })
    await expect(missing).rejects.toBeInstanceOf(SpeechEngineError)
    await expect(missing).rejects.toThrow(/apt-get install -y espeak-ng.*--engine openai/)
  })

  it('OpenAI text-to-speech without a key says how to record offline', () => {
    expect(() => openAiEngine({ apiKey: undefined })).toThrow(/OPENAI_API_KEY is required.*--engine espeak/)
  })

  it.skipIf(process.platform === 'win32')(
    'espeak-ng speaks 24 kHz speech, the same bytes every time (skipped without espeak-ng)',
    async (context) => {
      if ((await espeakVersion()) === null)
        context.skip('espeak-ng is not installed (apt-get install -y espeak-ng)')
      const espeak = await espeakEngine()
      const first = await espeak.synthesize('-- A table for two, please.')
      const second = await espeak.synthesize('-- A table for two, please.')
      expect(first.length).toBeGreaterThan(24_000)
      expect(Buffer.compare(Buffer.from(first.buffer), Buffer.from(second.buffer))).toBe(0)
      expect(espeak).toMatchObject({ engine: 'espeak-ng', voice: 'en-us', rateWpm: 160 })
    },
  )
})
