// The interrupt listeners in a real process without Vitest: SIGINT/SIGTERM settle every watched run
// synchronously, print one line per run, and the process still ends by the signal when nobody else ends it. In
// process: what the line and the completion marker of a settled run count (trials in a trials run).
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { withTrial } from '../reporting/row-key.ts'
import { JOURNAL_ORDER, JOURNAL_RUN, passedRow } from './rows-journal.test-helpers.ts'
import { RowsJournal } from './rows-journal.ts'
import { readRowsJournal } from './rows-journal-read.ts'
import { interruptedRunLine, settleInterruptedRunSync, signalledRunLine } from './rows-journal-signals.ts'

let root = ''
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-signals-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const moduleOf = (name: string) => JSON.stringify(new URL(name, import.meta.url).pathname)

it.each(['SIGINT', 'SIGTERM'] as const)(
  '%s: a run with rows gets its interrupted results, an empty one is removed, the process ends by the signal',
  { timeout: 60_000 },
  async (signal) => {
    const withRows = join(root, 'with-rows')
    const empty = join(root, 'empty')
    for (const folder of [withRows, empty]) mkdirSync(folder, { mode: 0o700 })
    const script = `
      const { RowsJournal } = await import(${moduleOf('./rows-journal.ts')})
      const signals = await import(${moduleOf('./rows-journal-signals.ts')})
      const { JOURNAL_ORDER, JOURNAL_RUN, passedRow } = await import(${moduleOf('./rows-journal.test-helpers.ts')})
      const start = { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER }
      const journal = await RowsJournal.create(${JSON.stringify(withRows)}, start)
      journal.append(passedRow('second'))
      journal.append(passedRow('first'))
      signals.watchRunForInterrupt({ directory: ${JSON.stringify(withRows)}, claim: null, journal })
      const unused = await RowsJournal.create(${JSON.stringify(empty)}, start)
      signals.watchRunForInterrupt({ directory: ${JSON.stringify(empty)}, claim: null, journal: unused })
      signals.installInterruptHandlers((run) => 'settled ' + run.directory + ' ' + run.finishedRows)
      signals.installInterruptHandlers(() => 'installed twice')
      process.stdout.write('ready\\n')
      setInterval(() => {}, 1000)`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    await new Promise<void>((ready) =>
      child.stdout.on('data', (data: Buffer) => data.includes('ready') && ready()),
    )
    const exited = new Promise((done) => child.on('exit', (code, received) => done(received ?? code)))
    child.kill(signal)
    // Nothing else listens: the listener settles the runs, then the process ends by the signal itself.
    expect(await exited).toBe(signal)
    expect(stderr).toBe(`settled ${withRows} 2\nsettled ${empty} 0\n`)
    const written = JSON.parse(readFileSync(join(withRows, 'results.json'), 'utf8'))
    expect(written.results.map((row: { scenario_id: string }) => row.scenario_id)).toEqual([
      'first',
      'second',
    ])
    expect(written.run.configuration.live_evals.completion).toEqual({
      ending: 'interrupted',
      finished_rows: 2,
      planned_scenarios: 4,
    })
    expect(readRowsJournal(withRows).end?.reason).toBe('interrupted')
    expect(readdirSync(root)).toEqual(['with-rows'])
  },
)

it('SIGINT right after a run folder is reserved, before any journal: the empty folder goes and is named', {
  timeout: 60_000,
}, async () => {
  const script = `
    const { reserveRunDirectory } = await import(${moduleOf('./run-directory.ts')})
    const reserved = await reserveRunDirectory(${JSON.stringify(root)}, 'crawl_offline_responses', new Date(0))
    process.stdout.write('ready ' + reserved.path + '\\n')
    setInterval(() => {}, 1000)`
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const folder = await new Promise<string>((ready) =>
    child.stdout.on('data', (data: Buffer) => {
      const match = /ready (.+)\n/.exec(data.toString())
      if (match?.[1] !== undefined) ready(match[1])
    }),
  )
  expect(readdirSync(root)).toEqual(['crawl_offline_responses_19700101_000000_000Z'])
  const exited = new Promise((done) => child.on('exit', (code, received) => done(received ?? code)))
  child.kill('SIGINT')
  expect(await exited).toBe('SIGINT')
  expect(stderr).toBe(`live-evals: interrupted before any scenario finished; removed ${folder}\n`)
  expect(readdirSync(root)).toEqual([])
})

it('a trials run stopped early counts trials: the line says finished trials of the planned scenarios, the marker its planned trials', async () => {
  const directory = join(root, 'trials')
  mkdirSync(directory, { mode: 0o700 })
  // RUN with execution.trials 30 and two scenarios, stopped after 20 trials (here 3: the counts are what matter).
  const start = {
    run: JOURNAL_RUN,
    datasetOrder: ['run_refill_hours', 'run_refill_wrong_number'],
    trials: 30,
  }
  const journal = await RowsJournal.create(directory, start)
  for (const [id, trial] of [
    ['run_refill_hours', 1],
    ['run_refill_wrong_number', 1],
    ['run_refill_hours', 2],
  ] as const)
    journal.append(withTrial(passedRow(id), trial))
  const settled = settleInterruptedRunSync({ directory, claim: null, journal })
  expect(interruptedRunLine(settled)).toBe(
    `live-evals: interrupted; the results of 3 finished trials of 2 scenarios (60 planned) are in ${join(directory, 'results.json')} (marked interrupted)`,
  )
  const written = JSON.parse(readFileSync(join(directory, 'results.json'), 'utf8'))
  expect(written.run.configuration.live_evals.completion).toEqual({
    ending: 'interrupted',
    finished_rows: 3,
    planned_scenarios: 2,
    planned_trials: 60,
  })
})

it('without trials the line counts finished scenarios and the marker has no planned trials', async () => {
  const directory = join(root, 'once')
  mkdirSync(directory, { mode: 0o700 })
  const journal = await RowsJournal.create(directory, {
    run: JOURNAL_RUN,
    datasetOrder: JOURNAL_ORDER,
    trials: 1,
  })
  journal.append(passedRow('first'))
  const settled = settleInterruptedRunSync({ directory, claim: null, journal })
  expect(interruptedRunLine(settled)).toBe(
    `live-evals: interrupted; the results of 1 finished scenario are in ${join(directory, 'results.json')} (marked interrupted)`,
  )
  expect(readRowsJournal(directory).header).not.toHaveProperty('trials')
  const written = JSON.parse(readFileSync(join(directory, 'results.json'), 'utf8'))
  expect(written.run.configuration.live_evals.completion).toEqual({
    ending: 'interrupted',
    finished_rows: 1,
    planned_scenarios: 4,
  })
})

it('a signal names the report command for a run, not for a shard: its part has no report, the merge has', () => {
  const settled = (resultsFile: string) => ({
    directory: '/results/crawl_run',
    resultsFile,
    finishedRows: 1,
    plannedScenarios: 2,
    trialsPerScenario: 1,
    removed: [],
  })
  expect(signalledRunLine(settled('/results/crawl_run/results.json'))).toBe(
    'live-evals: interrupted; the results of 1 finished scenario are in /results/crawl_run/results.json ' +
      '(marked interrupted); its report: npx live-evals report /results/crawl_run',
  )
  // A folder the shell would split is quoted, so the printed command can be pasted as it is.
  expect(
    signalledRunLine({ ...settled("/my results/it's/results.json"), directory: "/my results/it's" }),
  ).toMatch(/; its report: npx live-evals report '\/my results\/it'\\''s'$/)
  expect(signalledRunLine(settled('/results/crawl_run/results.shard-1-of-2.json'))).toBe(
    'live-evals: interrupted; the results of 1 finished scenario are in ' +
      '/results/crawl_run/results.shard-1-of-2.json (marked interrupted)',
  )
})
