// The recorded-WAV caller source through the same engine as CRAWL: a scenario whose request is a recording
// (here our synthetic voice written to a WAV file beside the dataset) is streamed sample for sample, graded,
// and its row echoes the recording; a bad recording is an input_setup failure naming the file.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silence } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { encodeMonoWav, readMonoWavFile } from '../../audio/wav.ts'
import { loadDataset } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import {
  BUNDLED_CRAWL_DATASET,
  executeScenario,
  freshRunDirectory,
  offlineCrawlSettings,
  offlineEnv,
} from '../single-turn/test-support.ts'
import { LEAD_IN_MS, recordedCallerSource } from './caller-sources.ts'
import { ScenarioDetailsSchema } from './details.ts'

const BOOKING = 'crawl_001_booking_complete_request'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

/** A one-scenario dataset whose request is `wavOf(the request text)` under `request.wav` beside it. */
async function recordedDataset(wavOf: (text: string) => Uint8Array) {
  const bundled = JSON.parse(await readFile(BUNDLED_CRAWL_DATASET, 'utf8')) as {
    scenarios: { id: string; input: Record<string, unknown> }[]
  }
  const scenario = bundled.scenarios.find((candidate) => candidate.id === BOOKING)
  if (scenario === undefined) throw new Error(`no ${BOOKING}`)
  scenario.input.recordings = [
    {
      id: 'clean_take',
      path: 'request.wav',
      condition: 'clean',
      metadata: { generation: { source: 'test' } },
    },
  ]
  const folder = await freshRunDirectory()
  await writeFile(join(folder, 'request.wav'), wavOf(String(scenario.input.text)))
  const file = join(folder, 'dataset.json')
  await writeFile(file, JSON.stringify({ schema_version: '1.0', scenarios: [scenario] }))
  const [loaded] = (await loadDataset(file)).scenarios
  if (loaded === undefined) throw new Error('dataset did not load')
  return loaded
}

describe('a recorded-WAV caller through the engine', () => {
  for (const architecture of ['responses', 'client'] as const) {
    it(`${architecture}: streams the recording as it is and grades the scenario`, async () => {
      let recording: Int16Array = new Int16Array()
      const scenario = await recordedDataset((text) => {
        recording = syntheticSpeech(text)
        return encodeMonoWav(recording)
      })
      const settings = await offlineCrawlSettings()
      const runDirectory = await freshRunDirectory()
      const env = offlineEnv(settings, server, runDirectory, architecture, {
        callerSource: recordedCallerSource({ offline: true }),
      })
      const execution = await executeScenario(scenario, env)

      expect(execution.row.status, JSON.stringify(execution.failure ?? execution.grade?.assessment)).toBe(
        'passed',
      )
      expect(execution.row.recording).toEqual({
        id: 'clean_take',
        path: 'request.wav',
        condition: 'clean',
        metadata: { generation: { source: 'test' } },
      })
      expect(execution.row.observability).toMatchObject({ interaction: { audio_source: 'recorded' } })
      // input.wav: the lead-in, then exactly the recording's samples.
      const input = await readMonoWavFile(execution.artifacts.input_audio as string)
      const lead = silence(LEAD_IN_MS).length
      expect(input.samples.subarray(lead, lead + recording.length)).toEqual(recording)
      const details = ScenarioDetailsSchema.parse(
        JSON.parse(await readFile(execution.artifacts.details as string, 'utf8')),
      )
      expect(details.caller_audio).toBe('recorded')
      expect(details.recording?.file).toBe(join(runDirectoryOf(scenario), 'request.wav'))
    })
  }

  it('a recording that is not a valid WAV is an input_setup failure naming the file, and nothing is spoken instead', async () => {
    const scenario = await recordedDataset(() => new TextEncoder().encode('not a wav'))
    const settings = await offlineCrawlSettings()
    const execution = await executeScenario(
      scenario,
      offlineEnv(settings, server, await freshRunDirectory(), 'responses', {
        callerSource: recordedCallerSource({ offline: true }),
      }),
    )
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.row.error?.stage).toBe('input_setup')
    expect(execution.row.error?.message).toContain('request.wav')
    expect(execution.artifacts.input_audio).toBeNull()
  })
})

function runDirectoryOf(scenario: { input: { recordings: { resolvedPath: string }[] } }): string {
  const path = scenario.input.recordings[0]?.resolvedPath ?? ''
  return path.slice(0, path.lastIndexOf('/'))
}
