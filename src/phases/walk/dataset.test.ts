// The bundled WALK dataset (scenarios/walk/restaurant.json): what it covers, that each row is its CRAWL source
// with another id and a recording, that every recording is a valid transport WAV whose provenance and caller
// speech intervals describe it, and, where Debian's espeak-ng is installed, that regenerating a recording gives
// the committed bytes.
import { describe, expect, it } from 'vitest'
import { CONDITIONS } from '../../audio/effects/index.ts'
import { detectSpeech } from '../../audio/speech-activity.ts'
import { readMonoWavFile } from '../../audio/wav.ts'
import { loadDataset, selectScenarios } from '../../scenarios/index.ts'
import { BUNDLED_CRAWL_DATASET } from '../single-turn/test-support.ts'
import { OurGenerationSchema, SpeechIntervalsSchema } from './provenance.ts'
import { makeRecording } from './record.ts'
import { recordingRequest } from './recording-request.ts'
import { espeakEngine, espeakVersion } from './speech/espeak.ts'
import { BUNDLED_WALK_DATASET, rawRows } from './walk.test-helpers.ts'

const walk = await loadDataset(BUNDLED_WALK_DATASET)
const walkRows = await rawRows(BUNDLED_WALK_DATASET)
const crawlRows = await rawRows(BUNDLED_CRAWL_DATASET)
const generationOf = (metadata: Record<string, unknown>) => OurGenerationSchema.parse(metadata.generation)
const installed = await espeakVersion()
const committedVersion = generationOf(walk.scenarios[0]?.input.recordings[0]?.metadata ?? {}).engine_version

describe('the bundled WALK dataset', () => {
  it('has clean baselines and conditioned variants covering all seven presets, every row a WALK row', () => {
    expect(walk.scenarios.length).toBeGreaterThanOrEqual(21)
    expect(selectScenarios(walk.scenarios, 'walk')).toHaveLength(walk.scenarios.length)
    const conditions = walk.scenarios.map((scenario) => scenario.input.recordings[0]?.condition)
    for (const condition of CONDITIONS) expect(conditions).toContain(condition)
    // Every conditioned source also has its clean baseline, so robustness can be read per source scenario.
    const bySource = new Map<string, string[]>()
    for (const scenario of walk.scenarios) {
      const recording = scenario.input.recordings[0]
      if (recording === undefined) throw new Error(`${scenario.id} has no recording`)
      const source = generationOf(recording.metadata).source_scenario_id
      bySource.set(source, [...(bySource.get(source) ?? []), recording.condition])
    }
    for (const [source, seen] of bySource) {
      expect(seen, source).toContain('clean')
      expect(new Set(seen).size, source).toBe(seen.length)
    }
  })

  it('equals its CRAWL source except the id and the recordings', () => {
    for (const row of walkRows) {
      const recordings = row.input.recordings as { metadata: Record<string, unknown> }[]
      const sourceId = generationOf(recordings[0]?.metadata ?? {}).source_scenario_id
      const source = crawlRows.find((candidate) => candidate.id === sourceId)
      expect(source, `${row.id} names ${sourceId}`).toBeDefined()
      const { id: _walkId, input: walkInput, ...walkRest } = row
      const { id: _crawlId, input: crawlInput, ...crawlRest } = source as typeof row
      const { recordings: _recordings, ...walkInputRest } = walkInput
      expect(walkRest).toEqual(crawlRest)
      expect(walkInputRest).toEqual(crawlInput)
      expect(row.id).not.toBe(sourceId)
    }
  })

  it('holds a valid 24 kHz mono PCM16 recording for every row, described by its provenance', async () => {
    const seeds = new Set<number>()
    for (const scenario of walk.scenarios) {
      const [recording] = scenario.input.recordings
      if (recording === undefined) throw new Error(`${scenario.id} has no recording`)
      const wav = await readMonoWavFile(recording.resolvedPath)
      const generation = generationOf(recording.metadata)
      expect(generation).toMatchObject({
        source: 'synthetic_speech',
        engine: 'espeak-ng',
        tts_voice: 'en-us',
        voice: 'en-us',
        rate_wpm: 160,
        text: scenario.input.text,
        condition: recording.condition,
      })
      expect(generation.audio_realism).toMatchObject({
        condition: recording.condition,
        seed: generation.seed,
      })
      expect(generation.effects).toEqual(generation.audio_realism.effects)
      // Every 200 ms effect frame of the recording went through the chain, one frame per tick (as the reference).
      const frames = Math.ceil(wav.samples.length / 4800)
      expect(generation.audio_realism.observations).toMatchObject({
        processed_frames: frames,
        processed_ticks: frames,
      })
      seeds.add(generation.seed)

      const intervals = SpeechIntervalsSchema.parse(recording.metadata.speech_intervals)
      expect(intervals.length).toBeGreaterThan(0)
      expect(intervals[0]?.start_ms).toBeGreaterThanOrEqual(generation.lead_in_ms)
      expect(intervals.at(-1)?.end_ms).toBeLessThanOrEqual(wav.durationMs)
    }
    expect(seeds.size).toBe(walk.scenarios.length)
  })

  it('measures caller speech on the clean signal: a noisy take carries its clean baseline intervals', async () => {
    const noisy = walk.scenarios.find((scenario) => scenario.id === 'walk_001_booking_complete_request_noisy')
    const clean = walk.scenarios.find((scenario) => scenario.id === 'walk_001_booking_complete_request')
    const noisyRecording = noisy?.input.recordings[0]
    const cleanRecording = clean?.input.recordings[0]
    if (noisyRecording === undefined || cleanRecording === undefined) throw new Error('bundled rows missing')
    expect(noisyRecording.metadata.speech_intervals).toEqual(cleanRecording.metadata.speech_intervals)
    // The energy rule on the noisy file itself would call the whole recording speech.
    const wav = await readMonoWavFile(noisyRecording.resolvedPath)
    const onNoise = detectSpeech(wav.samples)
    expect(onNoise).toHaveLength(1)
    expect(onNoise[0]?.endMs).toBeGreaterThan(
      (SpeechIntervalsSchema.parse(noisyRecording.metadata.speech_intervals).at(-1)?.end_ms ?? 0) + 50,
    )
  })

  it.skipIf(installed !== committedVersion)(
    `regenerating with espeak-ng ${committedVersion} gives the committed bytes (runs only where that version is installed; here: ${installed ?? 'none'})`,
    async () => {
      const engine = await espeakEngine()
      for (const id of [
        'walk_020_hours',
        'walk_020_hours_realistic',
        'walk_013_cancel_authorized_r100_echo',
      ]) {
        const scenario = walk.scenarios.find((candidate) => candidate.id === id)
        const recording = scenario?.input.recordings[0]
        if (scenario === undefined || recording === undefined) throw new Error(`no ${id}`)
        const made = await makeRecording(
          engine,
          recordingRequest(scenario, recording, { seed: 0, overrides: {} }),
        )
        const committed = await readMonoWavFile(recording.resolvedPath)
        const firstDifference = committed.samples.findIndex((sample, index) => sample !== made.samples[index])
        expect(firstDifference, id).toBe(-1)
        expect(committed.samples.length, id).toBe(made.samples.length)
        expect(made.generation).toEqual(recording.metadata.generation)
      }
    },
  )
})
