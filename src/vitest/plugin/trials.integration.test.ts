// Repeated trials end to end, offline, in child Vitest processes: execution.trials = 3 on two scenarios
// (trials-fixture/crawl.toml) gives three tests per scenario, rows keyed by (scenario id, trial) with the trial
// extension on every row, the trials run extension with pass^k equal to hand-computed values, the console lines,
// and a junit.xml whose testcases carry each scenario's metrics as properties. The whole run is the crawl-trials
// project of the shared fixtureProjects run (one Vitest start fewer); `-t "trial 2/3"`, which selects one trial of
// every scenario, is a run of its own (a test-name filter is the whole run's, never a project's).
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { EXTENSION_KEY } from '../../reporting/extensions/registry.ts'
import { type ResultsDocument, ResultsDocumentSchema } from '../../reporting/result-schema.ts'
import { rowKeyOf } from '../../reporting/row-key.ts'
import {
  lines,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../child-vitest.test-helpers.ts'
import { fixtureProjectPart } from '../fixture-projects.test-helpers.ts'

const CONFIG = 'src/vitest/plugin/trials-fixture/vitest.config.ts'

interface TrialsRun {
  /** What the run printed: the whole output of its own run, the closing block of its folder in the shared run. */
  printed: string[]
  document: ResultsDocument
  runDirectory: string
  testNames: string[]
}

async function runTrials(extraArgs: string[]): Promise<TrialsRun> {
  const { dir, env } = await scratch()
  const report = join(dir, 'vitest.json')
  const run = await runVitest(
    [
      'run',
      '--config',
      CONFIG,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...extraArgs,
    ],
    env,
  )
  const runs = await runDirectoriesIn(join(dir, 'results'))
  expect(runs, run.output).toHaveLength(1)
  const runDirectory = join(dir, 'results', runs[0] ?? '')
  const document = ResultsDocumentSchema.parse(
    JSON.parse(await readFile(join(runDirectory, 'results.json'), 'utf8')),
  )
  const vitestReport = JSON.parse(await readFile(report, 'utf8')) as {
    testResults: { assertionResults: { title: string; status: string }[] }[]
  }
  const testNames = vitestReport.testResults
    .flatMap((file) => file.assertionResults)
    .filter((result) => result.status === 'passed' || result.status === 'failed')
    .map((result) => `${result.status} ${result.title}`)
  return { printed: lines(run.output), document, runDirectory, testNames }
}

/** The crawl-trials project's part of the shared fixtureProjects run. */
async function sharedTrials(): Promise<TrialsRun> {
  const part = await fixtureProjectPart('trials')
  expect(part.runDirectories, part.run.output).toHaveLength(1)
  const runDirectory = part.runDirectories[0] ?? ''
  const document = ResultsDocumentSchema.parse(
    JSON.parse(await readFile(join(runDirectory, 'results.json'), 'utf8')),
  )
  const testNames = part.tests
    .filter((result) => result.status === 'passed' || result.status === 'failed')
    .map((result) => `${result.status} ${result.title}`)
  return { printed: part.printedAbout(runDirectory), document, runDirectory, testNames }
}

describe('execution.trials = 3 on two scenarios (trial 2 of hours_flaky fails on purpose)', () => {
  let trials: TrialsRun

  beforeAll(async () => {
    trials = await sharedTrials()
  }, SPAWN_TIMEOUT_MS)

  test('three Vitest tests per scenario, named by trial, with the verdicts results.json has', () => {
    expect(trials.testNames.sort()).toEqual(
      [
        'failed Opening hours, with one trial failed on purpose [trial 2/3]',
        'passed Opening hours, answered every time [trial 1/3]',
        'passed Opening hours, answered every time [trial 2/3]',
        'passed Opening hours, answered every time [trial 3/3]',
        'passed Opening hours, with one trial failed on purpose [trial 1/3]',
        'passed Opening hours, with one trial failed on purpose [trial 3/3]',
      ].sort(),
    )
    // The run's own count (its closing line counts every project of the shared run).
    expect(trials.printed).toContain(
      '[responses] Completed 6/6 valid examples; 5 passed; 1 failed; 0 infrastructure failures.',
    )
  })

  test('rows are keyed by (scenario id, trial), in dataset order, each carrying its trial', () => {
    const { document } = trials
    expect(document.results.map((row) => [row.scenario_id, rowKeyOf(row).trial, row.status])).toEqual([
      ['hours_steady', 1, 'passed'],
      ['hours_steady', 2, 'passed'],
      ['hours_steady', 3, 'passed'],
      ['hours_flaky', 1, 'passed'],
      ['hours_flaky', 2, 'failed'],
      ['hours_flaky', 3, 'passed'],
    ])
    for (const row of document.results) expect(row.observability?.[EXTENSION_KEY]?.trial).toBeTypeOf('number')
    // The reference's summary stays counts only.
    expect(document.summary).toEqual({ total: 6, passed: 5, failed: 1, infrastructure_errors: 0 })
  })

  test('the trials run extension holds pass^1 and pass^k equal to the hand-computed values', () => {
    const extension = trials.document.run.configuration[EXTENSION_KEY]?.trials
    // hours_steady: c = 3 of n = 3, pass^j = 1 for every j.
    // hours_flaky:  c = 2 of n = 3, pass^1 = 2/3, pass^2 = C(2,2)/C(3,2) = 1/3, pass^3 = C(2,3)/C(3,3) = 0.
    // Overall (mean over scenarios): pass^1 = (1 + 2/3) / 2 = 5/6, pass^3 = (1 + 0) / 2 = 1/2.
    expect(extension?.k).toBe(3)
    expect(extension?.pass_1).toBeCloseTo(5 / 6, 12)
    expect(extension?.pass_k).toBe(0.5)
    expect(extension?.pass_k_scenarios).toBe(2)
    const [steady, flaky] = extension?.scenarios ?? []
    expect(steady).toMatchObject({ scenario_id: 'hours_steady', trials: 3, passed: 3, pass_1: 1, pass_k: 1 })
    expect(steady?.pass_hat).toEqual([1, 1, 1])
    expect(flaky).toMatchObject({ scenario_id: 'hours_flaky', trials: 3, passed: 2, pass_k: 0 })
    expect(flaky?.pass_hat[0]).toBeCloseTo(2 / 3, 12)
    expect(flaky?.pass_hat[1]).toBeCloseTo(1 / 3, 12)
    expect(flaky?.pass_hat[2]).toBe(0)
    // The offline clock is virtual: every trial measures the same latency, so the spread is n = 3 with stdev 0.
    expect(steady?.metrics.response_latency_ms).toMatchObject({ n: 3, stdev: 0 })
    expect(extension?.metrics.tool_accuracy?.n).toBe(6)
  })

  test('the console prints pass^1, pass^k and the scenario that was not repeatable', () => {
    const { printed } = trials
    expect(printed).toContain(
      '[responses] Trials: up to 3 per scenario; pass^1 0.833, pass^3 0.500 (mean over 2 scenario(s) with 3 trials).',
    )
    expect(printed).toContain('[responses] Not repeatable (passed some trials, not all): hours_flaky 2/3.')
    const spreads = printed.find((line) => line.startsWith('[responses] Over every trial: '))
    expect(spreads).toMatch(/tool accuracy 1\.000 ± 0\.000 \[1\.000–1\.000\], n=6/)
    expect(spreads).toMatch(/response latency \d+ ms ± 0 ms \[\d+ ms–\d+ ms\], n=6/)
  })

  test('junit.xml has one testcase per trial with the scenario metrics as properties', async () => {
    const xml = await readFile(join(trials.runDirectory, 'junit.xml'), 'utf8')
    const testcases = [
      ...xml.matchAll(/<testcase classname="([^"]+)" name="([^"]+)">([\s\S]*?)<\/testcase>/g),
    ]
    expect(testcases.map((match) => match[2])).toEqual([
      'Opening hours, answered every time [trial 1]',
      'Opening hours, answered every time [trial 2]',
      'Opening hours, answered every time [trial 3]',
      'Opening hours, with one trial failed on purpose [trial 1]',
      'Opening hours, with one trial failed on purpose [trial 2]',
      'Opening hours, with one trial failed on purpose [trial 3]',
    ])
    const failedTrial = testcases[4]?.[3] ?? ''
    expect(failedTrial).toContain('<property name="trial" value="2"/>')
    expect(failedTrial).toContain('<property name="status" value="failed"/>')
    expect(failedTrial).toContain('<failure message=')
    for (const [, classname, , body] of testcases) {
      expect(classname).toMatch(/^crawl\.responses\.hours_(steady|flaky)$/)
      expect(body).toContain('<property name="metric.tool_accuracy" value="1"/>')
      expect(body).toMatch(/<property name="metric\.response_latency_ms" value="\d+(\.\d+)?"\/>/)
    }
    expect(xml).toContain('<property name="trials.pass_3" value="0.5"/>')
  })

  test("each trial's artifacts are in its own <scenario id>__t<i> folder, none overwritten", async () => {
    const { document, runDirectory } = trials
    const seen = new Set<string>()
    for (const row of document.results) {
      const folder = `${row.scenario_id}__t${rowKeyOf(row).trial}`
      expect(row.artifacts).toMatchObject({
        input_audio: `audio/${folder}/input.wav`,
        conversation_audio: `audio/${folder}/conversation.wav`,
        events: `events/${folder}.jsonl`,
        details: `transcripts/${folder}.json`,
      })
      for (const path of Object.values(row.artifacts)) {
        if (path === null) continue
        expect(seen.has(path), path).toBe(false)
        seen.add(path)
        expect((await stat(join(runDirectory, path))).isFile()).toBe(true)
      }
    }
    // The details of the trial that failed on purpose are its own: its trial and its verdict.
    const failed = JSON.parse(await readFile(join(runDirectory, 'transcripts/hours_flaky__t2.json'), 'utf8'))
    expect(failed.observability?.live_evals?.trial).toBe(2)
    expect(failed.verdict?.status).toBe('failed')
    const passed = JSON.parse(await readFile(join(runDirectory, 'transcripts/hours_flaky__t3.json'), 'utf8'))
    expect(passed.observability?.live_evals?.trial).toBe(3)
    expect(passed.verdict).toBeUndefined()
  })
})

describe('-t "trial 2/3" selects one trial of every scenario', () => {
  let trials: TrialsRun

  beforeAll(async () => {
    trials = await runTrials(['-t', 'trial 2/3'])
  }, SPAWN_TIMEOUT_MS)

  test('two tests ran, and results.json holds exactly their rows, keyed as trial 2', () => {
    expect(trials.testNames).toHaveLength(2)
    expect(trials.document.results.map((row) => [row.scenario_id, rowKeyOf(row).trial, row.status])).toEqual([
      ['hours_steady', 2, 'passed'],
      ['hours_flaky', 2, 'failed'],
    ])
    expect(trials.printed.join('\n')).toContain('1 passed, 1 failed')
  })

  test('results.json is marked filtered: every scenario ran, but one trial of three', () => {
    expect(trials.document.run.configuration[EXTENSION_KEY]?.selection).toEqual({
      selected_scenarios: 2,
      offered_scenarios: 2,
      selected_trials: 2,
      offered_trials: 6,
      test_name_filter: 'trial 2\\/3',
      tags_filter: [],
      spec_files_left_out: [],
    })
    expect(trials.printed.join('\n')).toContain('a filtered run: 2 of 2 scenarios (2 of 6 trials)')
  })

  test('one trial of each scenario repeats nothing: summarized and reported like the single-trial run', async () => {
    expect(trials.document.run.configuration[EXTENSION_KEY]?.trials).toBeUndefined()
    expect(trials.printed.join('\n')).not.toContain('Trials:') // no "pass^1 …, pass^1 … with 1 trials"
    const report = await readFile(join(trials.runDirectory, 'report.html'), 'utf8')
    expect(report).not.toContain('Repeated trials')
    expect(report).toContain('scenarios<b>2</b></div>')
  })
})
