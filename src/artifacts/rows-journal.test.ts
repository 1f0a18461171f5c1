import { spawn } from 'node:child_process'
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildResultsDocument, withRunExtensions } from '../reporting/results-document.ts'
import { RowsJournalError } from './errors.ts'
import { brokenRow, JOURNAL_ORDER, JOURNAL_RUN, passedRow } from './rows-journal.test-helpers.ts'
import { journalFileFor, ROWS_JOURNAL_FILE, RowsJournal } from './rows-journal.ts'
import {
  journalCompletion,
  readRowsJournal,
  rebuildResultsFile,
  unfinishedRunDirectories,
  writeInterruptedResultsSync,
} from './rows-journal-read.ts'

let root: string
let runDir: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-journal-'))
  runDir = join(root, 'run')
  mkdirSync(runDir, { mode: 0o700 })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const start = { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER }
const journalPath = () => join(runDir, ROWS_JOURNAL_FILE)
const journalLines = () => readFileSync(journalPath(), 'utf8').split('\n')

describe('writing the rows journal', () => {
  it('starts with the run metadata, then one fsynced line per finished row', async () => {
    const journal = await RowsJournal.create(runDir, start)
    journal.append(passedRow('third'))
    journal.append(brokenRow('first'))
    journal.close()
    const lines = journalLines()
    expect(lines).toHaveLength(4) // header, two rows, and the empty string after the last newline
    expect(JSON.parse(lines[0] as string)).toEqual({
      journal: 'live-evals rows',
      version: 1,
      run: JOURNAL_RUN,
      dataset_order: JOURNAL_ORDER,
      results_file: 'results.json',
    })
    expect(JSON.parse(lines[1] as string)).toEqual({
      key: { scenario_id: 'third', trial: 1 },
      row: passedRow('third'),
    })
    expect(lines[3]).toBe('')
    expect(statSync(journalPath()).mode & 0o777).toBe(0o600)
  })

  it('never starts over an existing journal, and never twice for one key', async () => {
    const journal = await RowsJournal.create(runDir, start)
    await expect(RowsJournal.create(runDir, start)).rejects.toThrow(
      `The rows journal ${journalPath()} cannot be created: it exists already`,
    )
    journal.append(passedRow('first'))
    expect(() => journal.append(brokenRow('first'))).toThrow(
      `Scenario "first" trial 1 is in ${journalPath()} already (line 2)`,
    )
    expect(() => journal.append({ ...passedRow('x'), status: 'maybe' } as never)).toThrow(
      'is not a valid results.json row (status',
    )
    journal.end('passed')
    expect(() => journal.append(passedRow('second'))).toThrow('has ended')
    journal.close()
    expect(journalLines()).toHaveLength(4) // header, one row, end
  })

  it('refuses to start with a first line a rebuild could not trust', async () => {
    await expect(RowsJournal.create(runDir, { ...start, resultsFile: '../results.json' })).rejects.toThrow(
      'cannot start: its first line would be invalid (results_file: the path has a ".." segment',
    )
    await expect(
      RowsJournal.create(runDir, { ...start, run: { ...JOURNAL_RUN, module: 'sprint' as never } }),
    ).rejects.toThrow('(run.module: ')
    expect(() => statSync(journalPath())).toThrow()
  })

  it('names a shard journal after its results file', () => {
    expect(journalFileFor('results.json')).toBe('rows.jsonl')
    expect(journalFileFor('results.shard-1-of-2.json')).toBe('rows.shard-1-of-2.jsonl')
  })
})

describe('reading it back', () => {
  it('rebuilds results.json: run block, rows in dataset order, their summary', async () => {
    const journal = await RowsJournal.create(runDir, start)
    for (const id of ['third', 'first']) journal.append(passedRow(id))
    journal.append(brokenRow('second'))
    journal.close()
    const rebuilt = await rebuildResultsFile(runDir)
    expect(rebuilt.path).toBe(join(runDir, 'results.json'))
    const written = JSON.parse(readFileSync(rebuilt.path, 'utf8'))
    // No end line: the run was killed, and its rebuilt run block says so.
    const killedRun = withRunExtensions(JOURNAL_RUN, {
      completion: { ending: 'killed', finished_rows: 3, planned_scenarios: 4 },
    })
    expect(written).toEqual(
      buildResultsDocument(
        killedRun,
        [passedRow('first'), brokenRow('second'), passedRow('third')],
        JOURNAL_ORDER,
      ),
    )
    expect(written.summary).toEqual({ total: 3, passed: 2, failed: 0, infrastructure_errors: 1 })
    expect(rebuilt.completion).toEqual({
      complete: false,
      ending: 'killed',
      finishedRows: 3,
      plannedScenarios: 4,
      trialsPerScenario: 1,
    })
  })

  it('ignores a torn last line, as a kill in the middle of an append leaves it', async () => {
    const journal = await RowsJournal.create(runDir, start)
    journal.append(passedRow('first'))
    journal.close()
    const whole = `${JSON.stringify({ key: { scenario_id: 'second', trial: 1 }, row: passedRow('second') })}\n`
    appendFileSync(journalPath(), whole.slice(0, 200)) // the bytes that reached the file before the kill
    const read = readRowsJournal(runDir)
    expect(read.rows.map((row) => row.scenario_id)).toEqual(['first'])
    expect(read.tornLastLine).toEqual({ line: 3, bytes: 200 })
    expect((await rebuildResultsFile(runDir)).document.results.map((row) => row.scenario_id)).toEqual([
      'first',
    ])
  })

  it('refuses any other damage, naming the file and the line', async () => {
    const journal = await RowsJournal.create(runDir, start)
    journal.append(passedRow('first'))
    journal.close()
    const header = journalLines()[0] as string
    const row = journalLines()[1] as string
    const cases: [string, string][] = [
      [`${header}\n{"nonsense": 1}\n${row}\n`, 'damaged at line 2: it is neither a row nor the end line'],
      [`${header}\n${row}\n${row}\n`, 'damaged at line 3: scenario "first" trial 1 is also at line 2'],
      [
        `${header}\n{"end":{"reason":"passed","at":"2026-08-18T10:20:30.400Z"}}\n${row}\n`,
        'line 3: a line follows the end line',
      ],
      [`{"journal": "something else"}\n${row}\n`, "damaged at line 1: it is not a journal's first line"],
      [header.slice(0, 50), 'has no complete first line'],
      [
        `${header.replace('"results.json"', '"../outside.json"')}\n`,
        'damaged at line 1: it is not a journal\'s first line (results_file: the path has a ".." segment',
      ],
    ]
    for (const [text, problem] of cases) {
      writeFileSync(journalPath(), text)
      expect(() => readRowsJournal(runDir)).toThrow(RowsJournalError)
      expect(() => readRowsJournal(runDir)).toThrow(problem)
      expect(() => readRowsJournal(runDir)).toThrow(journalPath())
    }
  })

  it('tells a run that ended from one that was interrupted or killed', async () => {
    const journal = await RowsJournal.create(runDir, start)
    journal.append(passedRow('first'))
    expect(journalCompletion(readRowsJournal(runDir)).ending).toBe('killed')
    expect(unfinishedRunDirectories(root)).toEqual([runDir])
    journal.end('failed')
    journal.close()
    expect(journalCompletion(readRowsJournal(runDir))).toEqual({
      complete: true,
      ending: 'failed',
      finishedRows: 1,
      plannedScenarios: 4,
      trialsPerScenario: 1,
    })
    expect(unfinishedRunDirectories(root)).toEqual([])
  })
})

describe('scenarios planned after the first line (spec files that name their own)', () => {
  const inline = { run: JOURNAL_RUN, datasetOrder: [] }

  it('counts them among the planned scenarios of a killed run and keeps their collection order', async () => {
    const journal = await RowsJournal.create(runDir, inline)
    journal.plan(['add_milk', 'walk_dog', 'add_milk'])
    journal.plan(['walk_dog', 'pay_rent'])
    journal.plan([]) // nothing new: nothing written
    journal.append(passedRow('pay_rent'))
    journal.append(passedRow('add_milk'))
    expect(() => journal.append(passedRow('add_milk'))).toThrow('already (line 5)')
    journal.close()
    expect(
      journalLines()
        .slice(1, 3)
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { planned: { scenario_ids: ['add_milk', 'walk_dog'] } },
      { planned: { scenario_ids: ['pay_rent'] } },
    ])
    const read = readRowsJournal(runDir)
    expect(read.planned).toEqual(['add_milk', 'walk_dog', 'pay_rent'])
    expect(journalCompletion(read)).toEqual({
      complete: false,
      ending: 'killed',
      finishedRows: 2,
      plannedScenarios: 3,
      trialsPerScenario: 1,
    })
    const { document } = await rebuildResultsFile(runDir)
    expect(document.results.map((row) => row.scenario_id)).toEqual(['add_milk', 'pay_rent'])
    expect(document.run.configuration.live_evals?.completion).toEqual({
      ending: 'killed',
      finished_rows: 2,
      planned_scenarios: 3,
    })
  })

  it('does not count an id the first line lists twice, and an interrupted run counts them too', async () => {
    const journal = await RowsJournal.create(runDir, start)
    journal.plan(['first', 'extra'])
    journal.append(passedRow('extra'))
    const written = JSON.parse(readFileSync(writeInterruptedResultsSync(journal), 'utf8'))
    journal.close()
    expect(written.run.configuration.live_evals.completion).toEqual({
      ending: 'interrupted',
      finished_rows: 1,
      planned_scenarios: 5,
    })
    expect(() => journal.plan(['late'])).toThrow('has ended')
  })
})

describe('the interrupted run', () => {
  it('writes results.json synchronously from the rows the writer holds, and ends the journal', async () => {
    const journal = await RowsJournal.create(runDir, start)
    journal.append(passedRow('second'))
    const path = writeInterruptedResultsSync(journal)
    journal.close()
    const written = JSON.parse(readFileSync(path, 'utf8'))
    expect(written.results.map((row: { scenario_id: string }) => row.scenario_id)).toEqual(['second'])
    expect(written.run.configuration.live_evals).toEqual({
      version: '1.0',
      completion: { ending: 'interrupted', finished_rows: 1, planned_scenarios: 4 },
    })
    expect(journalCompletion(readRowsJournal(runDir))).toMatchObject({
      complete: false,
      ending: 'interrupted',
    })
    expect(statSync(path).mode & 0o777).toBe(0o600)
  })

  // A real process: rows are appended, then SIGTERM or SIGKILL arrives at a known point (after the k-th row).
  it.each([
    ['SIGTERM', 1],
    ['SIGTERM', 3],
    ['SIGKILL', 0],
    ['SIGKILL', 2],
  ] as const)(
    'keeps every finished row when the writer gets %s after %i rows',
    { timeout: 60_000 },
    async (signal, k) => {
      const rowsModule = new URL('./rows-journal.ts', import.meta.url).pathname
      const readModule = new URL('./rows-journal-read.ts', import.meta.url).pathname
      const helpers = new URL('./rows-journal.test-helpers.ts', import.meta.url).pathname
      const script = `
      const { RowsJournal } = await import(${JSON.stringify(rowsModule)})
      const { writeInterruptedResultsSync } = await import(${JSON.stringify(readModule)})
      const { JOURNAL_ORDER, JOURNAL_RUN, passedRow } = await import(${JSON.stringify(helpers)})
      const journal = await RowsJournal.create(${JSON.stringify(runDir)}, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
      // Like Vitest: exit about 1 ms after the signal, so only synchronous work gets done.
      process.on('SIGTERM', () => { writeInterruptedResultsSync(journal); setTimeout(() => process.exit(143), 1) })
      for (const id of JOURNAL_ORDER.slice(0, ${k})) journal.append(passedRow(id))
      process.stdout.write('ready\\n')
      setInterval(() => {}, 1000)`
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      await new Promise<void>((ready) =>
        child.stdout.on('data', (data: Buffer) => data.includes('ready') && ready()),
      )
      const exited = new Promise((done) => child.on('exit', (code, received) => done(received ?? code)))
      child.kill(signal)
      expect(await exited).toBe(signal === 'SIGTERM' ? 143 : 'SIGKILL')
      const expectedIds = JOURNAL_ORDER.slice(0, k)
      if (signal === 'SIGKILL') {
        // Nothing ran after the kill: the journal has the rows, and `live-evals results` rebuilds from it.
        expect(() => statSync(join(runDir, 'results.json'))).toThrow()
        const rebuilt = await rebuildResultsFile(runDir)
        expect(rebuilt.document.results.map((row) => row.scenario_id)).toEqual(expectedIds)
        expect(rebuilt.completion.ending).toBe('killed')
      } else {
        const written = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8'))
        expect(written.results.map((row: { scenario_id: string }) => row.scenario_id)).toEqual(expectedIds)
        expect(readRowsJournal(runDir).end?.reason).toBe('interrupted')
      }
    },
  )
})
