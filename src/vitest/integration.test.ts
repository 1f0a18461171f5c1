// End-to-end runs of a tiny live-evals project (src/vitest/fixtures) in a child Vitest, offline. Each run costs
// seconds, so one run checks many things: results.json, the summary lines, the failing test's message, retries,
// and the standard reporters beside ours; the failing-fast cases stop before any worker starts.
import { readdir, readFile, stat } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { loadGateFile } from '../gate/load.ts'
import { ResultsDocumentSchema } from '../reporting/result-schema.ts'
import {
  type ChildRun,
  FIXTURE_CONFIG,
  lines,
  ROOT,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from './child-vitest.test-helpers.ts'
import { sharedChildRun } from './shared-child-run.test-helpers.ts'

describe('an offline run of the fixture project (one wrong-tool scenario, one correct)', () => {
  let dir = ''
  let run: ChildRun = { code: null, output: '' }
  let runDirectory = ''

  beforeAll(async () => {
    // The same run journal.integration.test.ts and report-browser.test.ts read: started once per test run.
    // --reporter replaces the configured reporters: the canonical one must still be added by the project.
    ;({ dir, ...run } = await sharedChildRun('tinyRetried'))
    const runs = await runDirectoriesIn(join(dir, 'results'))
    expect(runs).toHaveLength(1)
    runDirectory = join(dir, 'results', runs[0] ?? '')
  }, SPAWN_TIMEOUT_MS)

  test('writes a valid results.json in dataset order with the run metadata', async () => {
    expect(runDirectory).toMatch(/crawl_offline_responses_\d{8}_\d{6}_\d{3}Z$/)
    const document = ResultsDocumentSchema.parse(
      JSON.parse(await readFile(join(runDirectory, 'results.json'), 'utf8')),
    )
    expect(document.run).toMatchObject({
      module: 'crawl',
      execution_mode: 'offline_fixture',
      interaction: 'single_turn',
      dataset: 'src/vitest/fixtures/tiny-dataset.json',
      configuration: { assistant_mode: 'responses', audio_source: 'synthetic' },
    })
    expect(document.results.map((row) => [row.scenario_id, row.status])).toEqual([
      ['fixture_wrong_tool', 'failed'],
      ['fixture_hours', 'passed'],
    ])
    expect(document.summary).toEqual({ total: 2, passed: 1, failed: 1, infrastructure_errors: 0 })
    // Every spec file ran unfiltered: no `selection` marker, so the gate judges it as a whole run.
    expect(document.run.configuration.live_evals?.selection).toBeUndefined()
    expect((await stat(join(runDirectory, 'results.json'))).mode & 0o777).toBe(0o600)
  })

  test('results.json names no absolute path of this machine: dataset and caches relative to the project', async () => {
    const text = await readFile(join(runDirectory, 'results.json'), 'utf8')
    const strings: string[] = []
    const collect = (value: unknown): void => {
      if (typeof value === 'string') strings.push(value)
      else if (Array.isArray(value)) value.forEach(collect)
      else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect)
    }
    collect(JSON.parse(text))
    expect(strings.filter((value) => isAbsolute(value))).toEqual([])
    for (const machinePath of [ROOT, dir, tmpdir(), homedir()]) expect(text).not.toContain(machinePath)
    const { configuration } = JSON.parse(text).run
    expect(configuration.audio_cache_dir).toBe('.audio_cache/crawl')
  })

  test("Vitest's attachment copies go to <results dir>/.attachments, created private", async () => {
    const attachments = join(dir, 'results', '.attachments')
    expect((await stat(attachments)).mode & 0o777).toBe(0o700)
    expect((await readdir(attachments)).some((name) => name.endsWith('.wav'))).toBe(true)
  })

  test('prints the summary, the results path and a plain "N passed, N failed" line', () => {
    expect(run.code).not.toBe(0)
    const printed = lines(run.output)
    expect(printed).toContain(
      '[responses] Completed 2/2 valid examples; 1 passed; 1 failed; 0 infrastructure failures.',
    )
    expect(printed).toContain(`Results: ${runDirectory}`)
    expect(printed).toContain('1 passed, 1 failed')
  })

  test('the wrong tool call fails its test with the failed checks and the evidence', () => {
    expect(run.output).toContain('did not complete the task. Failed checks: tool_contract')
    expect(run.output).toContain('call 1: expected create_reservation, got check_availability')
  })

  test('a retried test reports only its last attempt in meta; junit and json reporters still write', async () => {
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'))
    const results = report.testResults.flatMap(
      (file: { assertionResults: unknown[] }) => file.assertionResults,
    )
    const wrong = results.find(
      (result: { meta?: { liveEvals?: { scenarioId: string } } }) =>
        result.meta?.liveEvals?.scenarioId === 'fixture_wrong_tool',
    )
    expect(wrong.status).toBe('failed')
    expect(wrong.meta.liveEvals.attempt).toBe(1)
    expect(wrong.meta.liveEvals.grades.map((grade: { matcher: string }) => grade.matcher)).toEqual([
      'toMatchToolCalls',
      'toFollowDelegationPolicy',
      'toCompleteTask',
    ])
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8')
    expect(junit).toContain('tests="2"')
    expect(junit).toContain('<failure')
  })

  test(
    '--merge-reports reports the blobs again without rewriting results.json',
    async () => {
      const before = await readFile(join(runDirectory, 'results.json'), 'utf8')
      const merged = await runVitest(
        ['run', '--config', FIXTURE_CONFIG, `--merge-reports=${join(dir, 'blobs')}`, '--reporter=default'],
        (await scratch()).env,
      )
      const printed = lines(merged.output)
      expect(printed).toContain('1 passed, 1 failed')
      expect(printed).toContain(
        '(merged report: results.json was written by the original run, not rewritten)',
      )
      expect(await readFile(join(runDirectory, 'results.json'), 'utf8')).toBe(before)
    },
    SPAWN_TIMEOUT_MS,
  )
})

/** A run that could not start: exit 1, the problem in plain text, no Vitest crash report, nothing created. */
async function expectCleanStartupFailure(run: ChildRun, dir: string): Promise<void> {
  expect(run.code).toBe(1)
  expect(run.output).toContain('live-evals: the CRAWL run cannot start; nothing was run')
  expect(run.output).not.toContain('Unhandled Error')
  expect(run.output).not.toContain('false positive')
  expect(run.output).not.toMatch(/❯ |\n\s+at /)
  await expect(readdir(join(dir, 'results'))).rejects.toThrow(/ENOENT/)
}

describe('runs that must not start', () => {
  test(
    'a bad dataset fails before any test runs, listing every violation',
    async () => {
      const { dir, env } = await scratch()
      const run = await runVitest(['run', '--config', FIXTURE_CONFIG], {
        ...env,
        LIVE_EVALS_DATASET: 'src/vitest/fixtures/bad-dataset.json',
      })
      expect(run.output).toContain('scenarios[0].title [scenario fixture_bad_one]: missing required field')
      expect(run.output).toContain('scenarios[1].expected.delegation [scenario fixture_bad_two]')
      await expectCleanStartupFailure(run, dir)
    },
    SPAWN_TIMEOUT_MS,
  )

  test(
    'a bad setting fails the same way, naming the setting',
    async () => {
      const { dir, env } = await scratch()
      const run = await runVitest(['run', '--config', FIXTURE_CONFIG], {
        ...env,
        LIVE_EVALS_CONCURRENCY: 'many',
      })
      expect(run.output).toMatch(/concurrency/i)
      await expectCleanStartupFailure(run, dir)
    },
    SPAWN_TIMEOUT_MS,
  )

  test(
    'live mode without OPENAI_API_KEY fails fast and says how to run offline',
    async () => {
      const { dir, env } = await scratch()
      const run = await runVitest(['run', '--config', FIXTURE_CONFIG], { ...env, LIVE_EVALS_MODE: 'live' })
      expect(run.output).toContain('OPENAI_API_KEY is required for a live run')
      expect(run.output).toContain('LIVE_EVALS_MODE=offline')
      await expectCleanStartupFailure(run, dir)
    },
    SPAWN_TIMEOUT_MS,
  )
})

describe('runs that select part of the dataset', () => {
  test(
    '-t: the summary counts the scenarios that ran; a run the filter emptied leaves no directory',
    async () => {
      const { dir, env } = await scratch()
      // Both architectures are planned; the filter keeps one scenario of the client run only.
      const run = await runVitest(['run', '--config', FIXTURE_CONFIG, '-t', 'client.*fixture_hours'], env)
      expect(run.code, run.output).toBe(0)
      const printed = lines(run.output)
      expect(printed).toContain(
        '[client] Completed 1/1 valid examples; 1 passed; 0 failed; 0 infrastructure failures.',
      )
      const runs = await runDirectoriesIn(join(dir, 'results'))
      expect(runs).toEqual([expect.stringMatching(/^crawl_offline_client_/)])
      // results.json says a filter chose its one scenario, and the gate refuses it as partial unless told.
      const file = join(dir, 'results', runs[0] ?? '', 'results.json')
      const gated = await loadGateFile(file)
      expect(gated.document.run.configuration.live_evals?.selection).toEqual({
        selected_scenarios: 1,
        offered_scenarios: 2,
        test_name_filter: 'client.*fixture_hours',
        tags_filter: [],
        spec_files_left_out: [],
      })
      expect(gated.partial).toBe(
        'a filtered run: 1 of 2 scenarios, chosen by the test-name filter /client.*fixture_hours/ ' +
          '(run.configuration.live_evals.selection)',
      )
    },
    SPAWN_TIMEOUT_MS,
  )

  test(
    '`vitest list` reserves nothing that stays',
    async () => {
      const { dir, env } = await scratch()
      const run = await runVitest(['list', '--no-static-parse', '--config', FIXTURE_CONFIG], env)
      expect(run.code, run.output).toBe(0)
      expect(run.output).toContain('fixture_hours')
      expect(await runDirectoriesIn(join(dir, 'results'))).toEqual([])
    },
    SPAWN_TIMEOUT_MS,
  )
})
