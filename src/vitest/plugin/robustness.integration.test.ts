// Condition robustness end to end, offline, in the shared run of the fixture projects (src/vitest/fixtures/together):
// six bundled WALK recordings of two source scenarios (four conditions of one, two of the other), two trials each
// (robustness-fixture/trials.toml), with one trial of the noisy recording failing on purpose. The real WALK rows'
// recordings group by source_scenario_id into the condition_robustness run extension, the console line and the
// report. A recording whose file is missing (robustness-fixture/missing) fails before the engine runs, and its row
// still counts under its condition.
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { EXTENSION_KEY } from '../../reporting/extensions/registry.ts'
import { type ResultsDocument, ResultsDocumentSchema } from '../../reporting/result-schema.ts'
import { SPAWN_TIMEOUT_MS } from '../child-vitest.test-helpers.ts'
import { type FixtureProjectPart, fixtureProjectPart } from '../fixture-projects.test-helpers.ts'
import {
  MISSING_RECORDING_IDS,
  type Recording,
} from './robustness-fixture/missing/missing-recording.test-helpers.ts'

describe('WALK recordings under several conditions, two trials each', () => {
  let part: FixtureProjectPart
  let document: ResultsDocument
  let runDirectory = ''
  // What the run printed about this project's run folder.
  let printed: string[] = []

  beforeAll(async () => {
    part = await fixtureProjectPart('robustness')
    expect(part.runDirectories, part.run.output).toHaveLength(1)
    runDirectory = part.runDirectories[0] ?? ''
    printed = part.printedAbout(runDirectory)
    document = ResultsDocumentSchema.parse(
      JSON.parse(await readFile(join(runDirectory, 'results.json'), 'utf8')),
    )
  }, SPAWN_TIMEOUT_MS)

  test('a source scenario is robust only if every recording of it passed in every trial', () => {
    const statuses = part.tests.map((test) => test.status)
    expect(
      statuses.filter((status) => status === 'passed'),
      part.run.output,
    ).toHaveLength(11)
    expect(statuses.filter((status) => status === 'failed')).toHaveLength(1)
    expect(printed).toContain(
      '[responses] Completed 12/12 valid recordings; 11 passed; 1 failed; 0 infrastructure failures.',
    )
    const robustness = document.run.configuration[EXTENSION_KEY]?.condition_robustness
    expect(robustness).toMatchObject({
      sources: 2,
      robust: 1,
      robust_rate: 0.5,
      conditions: ['clean', 'realistic', 'noisy', 'background_speech'],
    })
    expect(robustness?.scenarios.map((scenario) => [scenario.source_scenario_id, scenario.robust])).toEqual([
      ['crawl_001_booking_complete_request', true],
      ['crawl_003_booking_corrected_date', false],
    ])
    expect(robustness?.scenarios[1]).toMatchObject({
      failed_conditions: ['noisy'],
      conditions: [
        { condition: 'clean', scenario_id: 'walk_003_booking_corrected_date', rows: 2, passed: 2 },
        { condition: 'noisy', scenario_id: 'walk_003_booking_corrected_date_noisy', rows: 2, passed: 1 },
      ],
    })
  })

  test('the console and the report show it per source scenario and overall', async () => {
    expect(printed).toContain(
      '[responses] Condition robustness: 1/2 of 2 source scenarios (50.0% of the known) passed under every condition they ran with ' +
        '(clean, realistic, noisy, background_speech); not robust: crawl_003_booking_corrected_date (noisy).',
    )
    const page = await readFile(join(runDirectory, 'report.html'), 'utf8')
    expect(page).toContain('robust<b>1/2 of 2 source scenarios</b>')
    expect(page).toContain(
      '<tr data-robust="false"><td>crawl_003_booking_corrected_date</td><td>no: noisy</td>',
    )
    // crawl_003 has no realistic or background_speech recording
    expect(page).toContain('<td class="meta">not run</td>')
  })
})

describe('a WALK recording whose file is missing', () => {
  test(
    'fails before the engine runs, and its row still counts under its condition',
    async () => {
      // The corrected-date booking's clean and noisy recordings, with only the clean one's file beside the dataset
      // (missing-recording.test-helpers.ts wrote it before the shared run started).
      const part = await fixtureProjectPart('robustness/missing')
      const dataset = JSON.parse(
        await readFile(join(part.run.dir, 'missing-recording', 'walk.json'), 'utf8'),
      ) as { scenarios: { id: string; input: { recordings: Recording[] } }[] }
      expect(dataset.scenarios.map((scenario) => scenario.id)).toEqual([...MISSING_RECORDING_IDS])
      const [clean, noisy] = dataset.scenarios.map((scenario) => scenario.input.recordings[0])
      if (clean === undefined || noisy === undefined) throw new Error('the dataset has no recordings')
      await expect(stat(join(part.run.dir, 'missing-recording', clean.path))).resolves.toBeDefined()
      await expect(stat(join(part.run.dir, 'missing-recording', noisy.path))).rejects.toThrow(/ENOENT/)

      expect(part.runDirectories, part.run.output).toHaveLength(1)
      const document = ResultsDocumentSchema.parse(
        JSON.parse(await readFile(join(part.runDirectories[0] ?? '', 'results.json'), 'utf8')),
      )
      const row = document.results.find((result) => result.scenario_id === MISSING_RECORDING_IDS[1])
      expect(row?.status, part.run.output).toBe('infrastructure_error')
      expect(row?.error?.stage).toBe('input_setup')
      expect(row?.recording).toEqual({
        id: 'caller_recording',
        path: noisy.path,
        condition: 'noisy',
        metadata: noisy.metadata,
      })
      // Counted under noisy as not run: the source scenario's robustness is unknown, not robust.
      expect(document.run.configuration[EXTENSION_KEY]?.condition_robustness?.scenarios).toMatchObject([
        {
          source_scenario_id: 'crawl_003_booking_corrected_date',
          robust: null,
          not_run_conditions: ['noisy'],
        },
      ])
    },
    SPAWN_TIMEOUT_MS,
  )
})
