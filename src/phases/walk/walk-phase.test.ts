// The WALK phase module through the engine against the real offline GPT-Live server: a conditioned bundled
// recording is streamed exactly and graded in both architectures, its row echoes the recording as the dataset
// gives it, nothing the harness sends carries the reference text or evaluator-only data, and a recording
// without speech intervals is measured by the voice activity detector, which the row says.
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyRealism } from '../../audio/effects/index.ts'
import { concatPcm16, silence } from '../../audio/pcm.ts'
import { encodeMonoWav, readMonoWavFile } from '../../audio/wav.ts'
import {
  assistantVisibleInput,
  type LoadedScenario,
  loadDataset,
  type Scenario,
} from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { LEAD_IN_MS, MEASURED_CALLER_SPEECH_KEY } from '../engine/caller-sources.ts'
import { runScenario } from '../engine/run-scenario.ts'
import { walkPhase } from './index.ts'
import {
  BUNDLED_WALK_DATASET,
  crawlRow,
  offlineWalkEnv,
  offlineWalkSettings,
  rawRows,
  writeDataset,
} from './walk.test-helpers.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

async function execute(scenario: LoadedScenario, architecture: 'responses' | 'client', dataset?: string) {
  const settings = await offlineWalkSettings(dataset)
  const env = await offlineWalkEnv(settings, server, architecture)
  const execution = await runScenario(walkPhase, scenario as Scenario, env, {
    application: env.architecture.createApplication(assistantVisibleInput(scenario as Scenario)),
  })
  return { execution, env }
}

/** Every frame the harness sent to the session, as the sanitized events artifact logged it. */
async function sentFrames(runDirectory: string, events: string | null): Promise<string[]> {
  if (events === null) throw new Error('no events artifact')
  const lines = (await readFile(join(runDirectory, events), 'utf8')).trim().split('\n')
  return lines.filter((line) => (JSON.parse(line) as { source: string }).source === 'client')
}

describe('the WALK phase module', () => {
  it('reports the reference WALK configuration: recorded audio, no text-to-speech keys', async () => {
    const settings = await offlineWalkSettings()
    for (const architecture of ['responses', 'client'] as const) {
      const configuration = walkPhase.configuration(settings, architecture)
      expect(Object.keys(configuration).sort()).toEqual(
        [
          'assistant_endpoint',
          'assistant_mode',
          'audio_source',
          'backend_model',
          'chunk_ms',
          'concurrency',
          'model',
          'real_time',
          'sample_rate_hz',
          'voice',
        ].sort(),
      )
      expect(configuration).toMatchObject({
        audio_source: 'recorded',
        assistant_mode: architecture,
        real_time: false,
      })
    }
    expect(walkPhase.callerSource(settings).audioSource).toBe('recorded')
  })

  for (const architecture of ['responses', 'client'] as const) {
    it(`${architecture}: a realistic recording is streamed sample for sample, graded, and echoed in its row`, async () => {
      const dataset = await loadDataset(BUNDLED_WALK_DATASET)
      // This take never reaches -32768: input.wav's recorder scales a channel whose magnitude passes 32767,
      // so a full-scale negative sample would make the artifact differ by one from what was streamed.
      const scenario = dataset.scenarios.find((row) => row.id === 'walk_020_hours_realistic')
      if (scenario === undefined) throw new Error('bundled realistic row missing')
      const { execution, env } = await execute(scenario, architecture)
      expect(execution.row.status, JSON.stringify(execution.failure ?? execution.grade?.assessment)).toBe(
        'passed',
      )

      const recording = scenario.input.recordings[0]
      if (recording === undefined) throw new Error('no recording')
      expect(execution.row.recording).toEqual({
        id: recording.id,
        path: recording.path,
        condition: 'realistic',
        metadata: recording.metadata,
      })
      expect(execution.row.recording?.metadata).toMatchObject({
        generation: { audio_realism: { condition: 'realistic', effects: { telephony: true } } },
      })
      // input.wav is the lead-in and then exactly the recording's PCM.
      const wav = await readMonoWavFile(recording.resolvedPath)
      const input = await readMonoWavFile(
        join(env.runDirectory, execution.row.artifacts.input_audio as string),
      )
      const lead = silence(LEAD_IN_MS).length
      expect(input.samples.subarray(0, lead).every((sample) => sample === 0)).toBe(true)
      const streamed = input.samples.subarray(lead, lead + wav.samples.length)
      const firstDifference = streamed.findIndex((sample, index) => sample !== wav.samples[index])
      expect(firstDifference, `input.wav ${input.samples.length}, recording ${wav.samples.length}`).toBe(-1)
      expect(execution.row.observability).toMatchObject({ interaction: { audio_source: 'recorded' } })
    })
  }

  it('never sends the reference text, the expected answer or the recording provenance to the session', async () => {
    const row = await crawlRow('crawl_020_hours')
    const folder = dirname(await writeDataset([]))
    const bundled = (await rawRows(BUNDLED_WALK_DATASET)).find(
      (candidate) => candidate.id === 'walk_020_hours_telephony',
    )
    if (bundled === undefined) throw new Error('bundled telephony row missing')
    const entry = structuredClone((bundled.input.recordings as Record<string, unknown>[])[0]) as {
      path: string
      metadata: { generation: Record<string, unknown> }
    }
    await writeFile(
      join(folder, 'request.wav'),
      await readFile(join(dirname(BUNDLED_WALK_DATASET), entry.path)),
    )
    entry.path = 'request.wav'
    entry.metadata.generation.source_scenario_id = 'SENTINEL_PROVENANCE_7d1'
    entry.metadata.generation.text = 'SENTINEL_GENERATION_TEXT_7d1'
    row.id = 'walk_sentinel'
    row.input.text = 'What hours are you open on Sundays? SENTINEL_REFERENCE_TEXT_7d1'
    row.input.recordings = [entry]
    const expected = row.expected as { answer: string; criteria: string[] }
    expected.answer = `${expected.answer} SENTINEL_ANSWER_7d1`
    expected.criteria = [...expected.criteria, 'SENTINEL_CRITERION_7d1']
    const dataset = await writeDataset([row], folder)
    const [scenario] = (await loadDataset(dataset)).scenarios
    if (scenario === undefined) throw new Error('dataset did not load')

    for (const architecture of ['responses', 'client'] as const) {
      const { execution, env } = await execute(scenario, architecture, dataset)
      expect(execution.row.status, JSON.stringify(execution.failure)).toBe('passed')
      const frames = await sentFrames(env.runDirectory, execution.row.artifacts.events)
      expect(frames.length).toBeGreaterThan(10)
      expect(frames.some((frame) => frame.includes('session.input_audio.append'))).toBe(true)
      for (const frame of frames) expect(frame).not.toMatch(/SENTINEL_/)
      // The reference text did reach the offline server's hearing oracle (the stand-in for recognition): it
      // comes back only as what the server says it heard.
      const events = await readFile(join(env.runDirectory, execution.row.artifacts.events as string), 'utf8')
      const heard = events.split('\n').filter((line) => line.includes('session.input_transcript.delta'))
      expect(heard.join('')).toContain('SENTINEL')
    }
  })

  it('a recording without speech intervals is measured by the voice activity detector, and the row says so', async () => {
    const folder = dirname(await writeDataset([]))
    const bundled = await loadDataset(BUNDLED_WALK_DATASET)
    const clean = bundled.scenarios.find((candidate) => candidate.id === 'walk_020_hours')?.input
      .recordings[0]
    if (clean === undefined) throw new Error('bundled clean row missing')
    // A user's noisy recording: the bundled clean take under RMS-1200 noise, with no metadata at all.
    const noisy = await applyRealism((await readMonoWavFile(clean.resolvedPath)).samples, {
      condition: 'noisy',
      seed: 5,
    })
    await writeFile(join(folder, 'user.wav'), encodeMonoWav(concatPcm16([noisy.samples])))
    const row = await crawlRow('crawl_020_hours')
    row.id = 'walk_user_recording'
    row.input.recordings = [{ id: 'take_1', path: 'user.wav', condition: 'noisy' }]
    const dataset = await writeDataset([row], folder)
    const [scenario] = (await loadDataset(dataset)).scenarios
    if (scenario === undefined) throw new Error('dataset did not load')

    const { execution } = await execute(scenario, 'responses', dataset)
    expect(execution.row.status, JSON.stringify(execution.failure)).toBe('passed')
    const metadata = execution.row.recording?.metadata as Record<string, unknown>
    const measured = metadata[MEASURED_CALLER_SPEECH_KEY] as {
      source: string
      speech_intervals: { start_ms: number; end_ms: number }[]
    }
    expect(measured.source).toBe('voice_activity_detector')
    // The detector finds the caller's speech, not the noise around it: it starts and ends within 200 ms of
    // the intervals measured on the clean take at generation time.
    const truth = clean.metadata.speech_intervals as { start_ms: number; end_ms: number }[]
    expect(measured.speech_intervals.length).toBeGreaterThan(0)
    expect(Math.abs((measured.speech_intervals[0]?.start_ms ?? 0) - (truth[0]?.start_ms ?? 0))).toBeLessThan(
      200,
    )
    expect(
      Math.abs((measured.speech_intervals.at(-1)?.end_ms ?? 0) - (truth.at(-1)?.end_ms ?? 0)),
    ).toBeLessThan(200)
    // Only the marker is added; the user's own metadata (none here) is otherwise echoed as it is.
    expect(Object.keys(metadata)).toEqual([MEASURED_CALLER_SPEECH_KEY])
  })
})
