// Condition robustness end to end, offline, in a child Vitest: six bundled WALK recordings of two source scenarios
// (four conditions of one, two of the other), two trials each, with one trial of the noisy recording failing on
// purpose. The real WALK rows' recordings group by source_scenario_id into the condition_robustness run extension,
// the console line and the report.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { EXTENSION_KEY } from '../../reporting/extensions/registry.ts'
import { type ResultsDocument, ResultsDocumentSchema } from '../../reporting/result-schema.ts'
import {
  type ChildRun,
  lines,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../child-vitest.test-helpers.ts'

describe('WALK recordings under several conditions, two trials each', () => {
  let run: ChildRun = { code: null, output: '' }
  let document: ResultsDocument
  let runDirectory = ''

  beforeAll(async () => {
    const { dir, env } = await scratch()
    run = await runVitest(['run', '--config', 'src/vitest/plugin/robustness-fixture/vitest.config.ts'], {
      ...env,
      LIVE_EVALS_MAX_EXAMPLES: '6',
      LIVE_EVALS_TRIALS: '2',
      OPENAI_ASSISTANT_MODE: 'responses',
    })
    const runs = await runDirectoriesIn(join(dir, 'results'))
    expect(runs, run.output).toHaveLength(1)
    runDirectory = join(dir, 'results', runs[0] ?? '')
    document = ResultsDocumentSchema.parse(
      JSON.parse(await readFile(join(runDirectory, 'results.json'), 'utf8')),
    )
  }, SPAWN_TIMEOUT_MS)

  test('a source scenario is robust only if every recording of it passed in every trial', () => {
    expect(run.output).toContain('11 passed, 1 failed')
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
    expect(lines(run.output)).toContain(
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
