// The recorded caller source as WALK uses it, on its own: where the offline hearing's timing comes from
// (our intervals written beside another toolkit's win over a top-level list), that live runs hear nothing
// from us, and that the streamed samples are the recording's after the lead-in.
import { copyFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readMonoWavFile } from '../../audio/wav.ts'
import { loadDataset, type Scenario } from '../../scenarios/index.ts'
import { LEAD_IN_MS, recordedCallerSource, recordedSpeechIntervals } from '../engine/caller-sources.ts'
import { rowRecordingOf } from '../engine/record.ts'
import { StageError } from '../engine/stage.ts'
import { BUNDLED_WALK_DATASET, crawlRow, writeDataset } from './walk.test-helpers.ts'

const CLEAN_TAKE = join(dirname(BUNDLED_WALK_DATASET), 'audio', 'walk_020_hours.wav')

async function scenarioWith(metadata: Record<string, unknown>): Promise<Scenario> {
  const row = await crawlRow('crawl_020_hours')
  row.input.recordings = [{ id: 'take', path: 'take.wav', condition: 'clean', metadata }]
  const file = await writeDataset([row])
  await copyFile(CLEAN_TAKE, join(dirname(file), 'take.wav'))
  const [scenario] = (await loadDataset(file)).scenarios
  if (scenario === undefined) throw new Error('dataset did not load')
  return scenario as Scenario
}

describe('recordedSpeechIntervals', () => {
  it("prefers our intervals beside another toolkit's metadata, then the top-level list; unusable is null", () => {
    const ours = [{ start_ms: 300, end_ms: 900 }]
    expect(
      recordedSpeechIntervals({
        speech_intervals: [{ start_ms: 0, end_ms: 50 }],
        live_evals: { speech_intervals: ours },
      }),
    ).toEqual([{ startMs: 300, endMs: 900 }])
    expect(recordedSpeechIntervals({ speech_intervals: [{ start_ms: 10, end_ms: 20 }] })).toEqual([
      { startMs: 10, endMs: 20 },
    ])
    expect(
      recordedSpeechIntervals({ speech_intervals: [{ start_ms: 20, end_ms: 10 }, 'x', null] }),
    ).toBeNull()
    expect(recordedSpeechIntervals({})).toBeNull()
  })
})

describe('the recorded caller source', () => {
  it('offline: the hearing spans the recorded intervals after the lead-in, with what the recording says', async () => {
    const scenario = await scenarioWith({
      transcript: 'What hours are you open on Sundays?',
      speech_intervals: [
        { start_ms: 310, end_ms: 800 },
        { start_ms: 900, end_ms: 2180 },
      ],
    })
    const caller = await recordedCallerSource({ offline: true }).prepare(scenario, {})
    expect(caller.hearing).toEqual([
      { text: 'What hours are you open on Sundays?', startMs: LEAD_IN_MS + 310, endMs: LEAD_IN_MS + 2180 },
    ])
    const wav = await readMonoWavFile(CLEAN_TAKE)
    const lead = (LEAD_IN_MS * 24_000) / 1000
    expect(caller.samples.length).toBe(lead + wav.samples.length)
    expect(caller.samples.subarray(lead)).toEqual(wav.samples)
    expect(caller.recording?.metadata).toEqual(scenario.input.recordings[0]?.metadata)
  })

  it('live: nothing is registered as heard; the model hears the audio', async () => {
    const scenario = await scenarioWith({ speech_intervals: [{ start_ms: 310, end_ms: 2180 }] })
    const caller = await recordedCallerSource({ offline: false, reportMeasuredSpeech: true }).prepare(
      scenario,
      {},
    )
    expect(caller.hearing).toEqual([])
    expect(caller.source).toBe('recorded')
  })

  // The test's meta takes it from recordingOf, and the reporter puts it on the failed row (reporters/run-results.ts).
  it('a recording that cannot be read still names itself and its condition, for the failed row', async () => {
    const row = await crawlRow('crawl_020_hours')
    row.input.recordings = [{ id: 'take', path: 'missing.wav', condition: 'noisy', metadata: { seed: 7 } }]
    const [scenario] = (await loadDataset(await writeDataset([row]))).scenarios
    if (scenario === undefined) throw new Error('dataset did not load')
    const source = recordedCallerSource({ offline: true })
    const error = await source.prepare(scenario as Scenario, {}).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StageError)
    expect((error as StageError).stage).toBe('input_setup')
    const recording = source.recordingOf?.(scenario as Scenario)
    if (recording === undefined) throw new Error('the recorded caller source names no recording')
    expect(rowRecordingOf(recording)).toEqual({
      id: 'take',
      path: 'missing.wav',
      condition: 'noisy',
      metadata: { seed: 7 },
    })
  })
})
