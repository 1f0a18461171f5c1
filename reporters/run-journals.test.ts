// The reporter's journals without Vitest: a plan with one run folder on disk, tests reported as Vitest would.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { readRowsJournal } from '../src/artifacts/rows-journal-read.ts'
import { interruptedRunLine } from '../src/artifacts/rows-journal-signals.ts'
import { passingRowInput } from '../src/reporting/reporting-fixtures.ts'
import { buildResultRow } from '../src/reporting/result-item.ts'
import type { ResultItem } from '../src/reporting/result-schema.ts'
import { withTrial } from '../src/reporting/row-key.ts'
import { initialMeta } from '../src/vitest/meta.ts'
import { plannedRunFixture } from '../src/vitest/planned-run.test-helpers.ts'
import type { PlannedRun, RunPlan } from '../src/vitest/run-plan-schema.ts'
import { RunJournals } from './run-journals.ts'
import type { FinishedScenarioTest } from './run-results.ts'

let root = ''
let run: PlannedRun
let plan: RunPlan
let logged: string[] = []
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-run-journals-'))
  run = plannedRunFixture({ root, resultsFile: 'results.json' })
  mkdirSync(run.directory, { mode: 0o700 })
  plan = {
    scenarioIds: ['first', 'second', 'third'],
    runs: [run],
    settings: { execution: { trials: 1 } },
  } as unknown as RunPlan
  logged = []
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const journals = () =>
  new RunJournals(
    () => [plan],
    (line) => logged.push(line),
  )

function finished(scenarioId: string, status: 'passed' | 'failed', withRow = true): FinishedScenarioTest {
  const meta = initialMeta({
    phase: 'crawl',
    scenarioId,
    scenarioType: 'information',
    architecture: 'responses',
    runDirectory: run.directory,
  })
  if (withRow) meta.row = buildResultRow(passingRowInput({ scenario_id: scenarioId }))
  return { name: `title of ${scenarioId}`, state: status, meta, errors: ['the fixture crashed'] }
}

describe('the rows journals of a run', () => {
  test('one row per finished test as it finishes; a test reporting again is not appended twice', async () => {
    const journal = journals()
    await journal.record('t2', finished('second', 'passed'))
    await journal.record('t2', finished('second', 'passed'))
    await journal.record('t1', finished('first', 'failed', false))
    await journal.record('t3', { ...finished('third', 'passed'), state: 'skipped' })
    const read = readRowsJournal(run.directory)
    expect(read.rows.map((row) => row.scenario_id)).toEqual(['second', 'first'])
    // A test that ended without a row gets the infrastructure_error row the results would give it.
    expect(read.rows[1]).toMatchObject({
      status: 'infrastructure_error',
      error: { message: 'the fixture crashed' },
    })
    expect(read.end).toBeNull()
    journal.finish('failed')
    expect(readRowsJournal(run.directory).end?.reason).toBe('failed')
    expect(logged).toEqual([])
  })

  test('a run that finished nothing drops its journal, so its empty folder can be released', async () => {
    const journal = journals()
    await journal.open()
    expect(readdirSync(run.directory)).toEqual(['rows.jsonl'])
    journal.finish('passed')
    expect(readdirSync(run.directory)).toEqual([])
  })

  test('Ctrl-C (the run ended interrupted): results of the finished rows, marked interrupted', async () => {
    const journal = journals()
    await journal.record('t1', finished('first', 'passed'))
    const [settled] = journal.interrupt()
    expect(settled).toMatchObject({ resultsFile: join(run.directory, 'results.json'), finishedRows: 1 })
    const document = JSON.parse(readFileSync(join(run.directory, 'results.json'), 'utf8'))
    expect(document.run.configuration.live_evals.completion).toEqual({
      ending: 'interrupted',
      finished_rows: 1,
      planned_scenarios: 3,
    })
  })

  test('Ctrl-C of a trials run: the line counts finished trials of the planned scenarios, the marker planned trials', async () => {
    plan = { ...plan, settings: { execution: { trials: 30 } } } as unknown as RunPlan
    const journal = journals()
    for (const [id, trial] of [
      ['first', 1],
      ['first', 2],
      ['second', 1],
    ] as const) {
      const test = finished(id, 'passed')
      if (test.meta) test.meta.row = withTrial(test.meta.row as ResultItem, trial)
      await journal.record(`${id} ${trial}`, test)
    }
    const [settled] = journal.interrupt()
    expect(settled && interruptedRunLine(settled)).toBe(
      `live-evals: interrupted; the results of 3 finished trials of 3 scenarios (90 planned) are in ${join(run.directory, 'results.json')} (marked interrupted)`,
    )
    const document = JSON.parse(readFileSync(join(run.directory, 'results.json'), 'utf8'))
    expect(document.run.configuration.live_evals.completion).toEqual({
      ending: 'interrupted',
      finished_rows: 3,
      planned_scenarios: 3,
      planned_trials: 90,
    })
  })

  test('interrupted results name the sources of the scenarios that finished, beside the marker', async () => {
    const journal = journals()
    const fromSpec = finished('first', 'passed')
    if (fromSpec.meta) fromSpec.meta.source = '/specs/crawl/own.spec.ts'
    await journal.record('t1', fromSpec)
    journal.interrupt()
    const { run: block } = JSON.parse(readFileSync(join(run.directory, 'results.json'), 'utf8'))
    expect(block.dataset).toBe('/specs/crawl/own.spec.ts')
    expect(block.configuration.live_evals).toEqual({
      version: '1.0',
      datasets: ['/specs/crawl/own.spec.ts'],
      completion: { ending: 'interrupted', finished_rows: 1, planned_scenarios: 3 },
    })
  })

  test('interrupted before anything finished: an empty folder is removed, one with artifacts gets empty results', async () => {
    const empty = journals()
    await empty.open()
    expect(empty.interrupt()[0]?.removed).toEqual([run.directory])
    expect(existsSync(run.directory)).toBe(false)

    mkdirSync(run.directory, { mode: 0o700 })
    const cut = journals()
    await cut.open()
    writeFileSync(join(run.directory, 'conversation.wav'), 'RIFF')
    expect(cut.interrupt()[0]?.finishedRows).toBe(0)
    expect(JSON.parse(readFileSync(join(run.directory, 'results.json'), 'utf8')).results).toEqual([])
  })

  /** A run folder in `resultsDir` whose journal has its first line and no end: a run killed before it ended. */
  function unfinishedEarlierRun(resultsDir: string): string {
    const earlier = join(resultsDir, 'crawl_offline_responses_20260817_000000_000Z')
    mkdirSync(earlier, { mode: 0o700 })
    writeFileSync(
      join(earlier, 'rows.jsonl'),
      `${JSON.stringify({ journal: 'live-evals rows', version: 1, run: run.metadata, dataset_order: [], results_file: 'results.json' })}\n`,
    )
    return earlier
  }

  test('an unfinished earlier run in the results folder is named with its rebuild command', async () => {
    const earlier = unfinishedEarlierRun(root)
    await journals().open()
    expect(logged).toEqual([
      `live-evals: an earlier run did not finish (${earlier}); rebuild its results with: live-evals results ${earlier}`,
    ])
  })

  test('the rebuild command quotes a folder the shell would split, so it can be pasted as printed', async () => {
    const resultsDir = join(root, 'eval results')
    run = plannedRunFixture({ root: resultsDir, resultsFile: 'results.json' })
    mkdirSync(run.directory, { recursive: true, mode: 0o700 })
    plan = { ...plan, runs: [run] }
    const earlier = unfinishedEarlierRun(resultsDir)
    await journals().open()
    expect(logged).toEqual([
      `live-evals: an earlier run did not finish (${earlier}); rebuild its results with: live-evals results '${earlier}'`,
    ])
  })

  test('empty folders of runs stopped before they recorded anything are removed and named once', async () => {
    const hourAgo = new Date(Date.now() - 60 * 60_000)
    const abandoned = join(root, 'crawl_offline_responses_20260817_000000_000Z')
    const fresh = join(root, 'crawl_offline_responses_20260817_000001_000Z') // a run starting right now
    const notARun = join(root, 'notes')
    for (const folder of [abandoned, fresh, notARun]) mkdirSync(folder, { mode: 0o700 })
    for (const folder of [abandoned, notARun, run.directory]) utimesSync(folder, hourAgo, hourAgo)
    const first = journals()
    await first.open()
    expect(logged).toEqual([
      `live-evals: removed 1 empty run folder of runs stopped before they recorded anything: ${abandoned}`,
    ])
    expect([abandoned, fresh, notARun, run.directory].map((folder) => existsSync(folder))).toEqual([
      false,
      true,
      true,
      true,
    ])
    first.finish('passed') // nothing finished: its journal goes
    logged = []
    await journals().open()
    expect(logged).toEqual([])
  })

  test('a journal that cannot be opened costs a line, never the run', async () => {
    writeFileSync(join(run.directory, 'rows.jsonl'), 'someone else’s\n')
    const journal = journals()
    await journal.record('t1', finished('first', 'passed'))
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatch(/rows journal .* cannot be created: it exists already/)
    journal.finish('passed')
  })
})
