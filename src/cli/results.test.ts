import { execFile } from 'node:child_process'
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { brokenRow, JOURNAL_ORDER, JOURNAL_RUN, passedRow } from '../artifacts/rows-journal.test-helpers.ts'
import { RowsJournal } from '../artifacts/rows-journal.ts'
import { readRowsJournal, unfinishedRunDirectories } from '../artifacts/rows-journal-read.ts'
import { jsonArtifactText } from '../artifacts/write.ts'
import { loadGateFile } from '../gate/load.ts'
import { buildResultsDocument, withRunExtensions } from '../reporting/results-document.ts'
import { parseResultsDocument } from '../reporting/results-file.ts'
import { withTrial } from '../reporting/row-key.ts'
import { captureIO } from './capture-io.ts'
import { run } from './results.ts'

let root: string
let runDir: string

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'live-evals-results-verb-'))
  runDir = path.join(root, 'crawl_offline_responses_20260818_102030_400Z')
  mkdirSync(runDir, { mode: 0o700 })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

/** The `selection` of a `-t first` run: one scenario of the four it was offered. */
const FIRST_ONLY = {
  selected_scenarios: 1,
  offered_scenarios: 4,
  test_name_filter: 'first',
  tags_filter: [],
  spec_files_left_out: [],
}

/** The `completion` of a run whose spec file named a dataset that does not exist. */
const TYPO_FAILED = {
  ending: 'spec_files_failed' as const,
  finished_rows: 1,
  planned_scenarios: 4,
  failed_spec_files: [{ file: 'specs/typo.spec.ts', error: 'no such dataset' }],
}

async function results(...argv: string[]) {
  const io = captureIO()
  const code = await run(argv, io)
  return { code, stdout: io.stdout(), stderr: io.stderr() }
}

describe('live-evals results <run-dir>', () => {
  it('rebuilds results.json from the journal of a killed run and says the results are partial', async () => {
    const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
    journal.append(passedRow('second'))
    journal.append(brokenRow('first'))
    journal.close() // no end line: the run was killed
    const deadWriter = path.join(runDir, '.results.json.999999999.1.tmp') // no such process
    writeFileSync(deadWriter, '{"schema_vers')
    const result = await results(runDir)
    expect(result).toEqual({
      code: 0,
      stdout:
        `rebuilt ${path.join(runDir, 'results.json')}: 2 rows (1 passed, 0 failed, 1 infrastructure error) of 4 planned scenarios; the run never ended (killed, or still running): these are partial results.\n` +
        'removed 1 temporary file left by writers that were killed mid-write.\n',
      stderr: '',
    })
    const text = readFileSync(path.join(runDir, 'results.json'), 'utf8')
    const document = parseResultsDocument(text, { source: 'results.json' })
    expect(document.run).toEqual({
      ...JOURNAL_RUN,
      configuration: {
        ...JOURNAL_RUN.configuration,
        live_evals: {
          version: '1.0',
          completion: { ending: 'killed', finished_rows: 2, planned_scenarios: 4 },
        },
      },
    })
    expect(document.results.map((row) => row.scenario_id)).toEqual(['first', 'second'])
  })

  it('a killed trials run: its rows are counted against the planned trials, which its marker records', async () => {
    const journal = await RowsJournal.create(runDir, {
      run: JOURNAL_RUN,
      datasetOrder: ['first', 'second'],
      trials: 30,
    })
    journal.append(withTrial(passedRow('first'), 1))
    journal.append(withTrial(passedRow('second'), 1))
    journal.close()
    const result = await results(runDir)
    expect(result.stdout).toBe(
      `rebuilt ${path.join(runDir, 'results.json')}: 2 rows (2 passed, 0 failed, 0 infrastructure errors) of 60 planned trials of 2 scenarios; the run never ended (killed, or still running): these are partial results.\n`,
    )
    const document = parseResultsDocument(readFileSync(path.join(runDir, 'results.json'), 'utf8'), {
      source: 'results.json',
    })
    expect(document.run.configuration.live_evals?.completion).toEqual({
      ending: 'killed',
      finished_rows: 2,
      planned_scenarios: 2,
      planned_trials: 60,
    })
  })

  it('ends the journal it rebuilt: later runs no longer name the run, and a second rebuild says the same', async () => {
    const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
    journal.append(passedRow('first'))
    journal.close() // killed
    expect(unfinishedRunDirectories(root)).toEqual([runDir])
    const first = await results(runDir)
    expect(first.code).toBe(0)
    const rebuilt = readFileSync(path.join(runDir, 'results.json'), 'utf8')
    expect(readRowsJournal(runDir).end).toMatchObject({ reason: 'killed' })
    expect(unfinishedRunDirectories(root)).toEqual([])
    const second = await results(runDir)
    expect(second.stdout).toBe(first.stdout)
    expect(readFileSync(path.join(runDir, 'results.json'), 'utf8')).toBe(rebuilt)
    expect(readFileSync(path.join(runDir, 'rows.jsonl'), 'utf8').match(/"end"/g)).toHaveLength(1)
  })

  it('keeps a complete results file the run wrote before it was killed, and ends the journal with its verdict', async () => {
    const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
    journal.append(passedRow('first'))
    journal.append(passedRow('second'))
    // The run wrote its results (from Vitest's own states), then was killed before it ended its journal.
    const complete = buildResultsDocument(JOURNAL_RUN, journal.rows, JOURNAL_ORDER)
    const text = jsonArtifactText(complete)
    writeFileSync(path.join(runDir, 'results.json'), text)
    journal.close()
    expect(unfinishedRunDirectories(root)).toEqual([])
    const result = await results(runDir)
    expect(result).toEqual({
      code: 0,
      stdout: `kept ${path.join(runDir, 'results.json')}: the run wrote its complete results (2 rows) before it was stopped; its journal is now ended.\n`,
      stderr: '',
    })
    expect(readFileSync(path.join(runDir, 'results.json'), 'utf8')).toBe(text)
    expect(readRowsJournal(runDir).end).toMatchObject({ reason: 'passed' })
  })

  it('keeps the results file of a run that ended, with the markers its journal never had', async () => {
    const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
    journal.append(passedRow('first'))
    // The reporter knew more than the journal's first line: a spec file failed to load and a filter was set.
    const run = withRunExtensions(JOURNAL_RUN, { selection: FIRST_ONLY, completion: TYPO_FAILED })
    const text = jsonArtifactText(buildResultsDocument(run, journal.rows, JOURNAL_ORDER))
    writeFileSync(path.join(runDir, 'results.json'), text)
    journal.end('failed')
    journal.close()
    const result = await results(runDir)
    expect(result).toEqual({
      code: 0,
      stdout:
        `kept ${path.join(runDir, 'results.json')}: the run had ended and wrote it itself (1 row, marked partial: ` +
        'spec file of the run failed before its scenarios ran: specs/typo.spec.ts (no such dataset); 1 row of the ' +
        'other spec files (run.configuration.live_evals.completion)); not rebuilt from its journal.\n',
      stderr: '',
    })
    expect(readFileSync(path.join(runDir, 'results.json'), 'utf8')).toBe(text)
  })

  it('says a kept results file of a filtered run is marked partial, in the words the gate refuses it with', async () => {
    const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
    journal.append(passedRow('first'))
    const run = withRunExtensions(JOURNAL_RUN, { selection: FIRST_ONLY })
    const resultsFile = path.join(runDir, 'results.json')
    writeFileSync(resultsFile, jsonArtifactText(buildResultsDocument(run, journal.rows, JOURNAL_ORDER)))
    journal.end('passed')
    journal.close()
    const { partial } = await loadGateFile(resultsFile)
    expect(partial).toContain('a filtered run: 1 of 4 scenarios')
    expect(await results(runDir)).toEqual({
      code: 0,
      stdout: `kept ${resultsFile}: the run had ended and wrote it itself (1 row, marked partial: ${partial}); not rebuilt from its journal.\n`,
      stderr: '',
    })
  })

  it('keeps what a run that ended incomplete wrote before it was killed: the markers its journal never had', async () => {
    const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
    journal.append(passedRow('first'))
    // Vitest ended the run (a spec file failed to load, a filter was set); it was killed before ending its journal.
    const run = withRunExtensions(JOURNAL_RUN, { selection: FIRST_ONLY, completion: TYPO_FAILED })
    const resultsFile = path.join(runDir, 'results.json')
    const text = jsonArtifactText(buildResultsDocument(run, journal.rows, JOURNAL_ORDER))
    writeFileSync(resultsFile, text)
    journal.close()
    expect(unfinishedRunDirectories(root)).toEqual([])
    const { partial } = await loadGateFile(resultsFile)
    expect(await results(runDir)).toEqual({
      code: 0,
      stdout: `kept ${resultsFile}: the run wrote its results (1 row, marked partial: ${partial}) before it was stopped; its journal is now ended.\n`,
      stderr: '',
    })
    expect(readFileSync(resultsFile, 'utf8')).toBe(text)
    expect(readRowsJournal(runDir).end).toMatchObject({ reason: 'failed' })
  })

  it('rebuilding a run that outlived an earlier rebuild keeps the markers and sources that rebuild carried', async () => {
    const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
    journal.append(passedRow('first'))
    expect((await results(runDir)).code).toBe(0) // ends the journal `killed`
    journal.append(passedRow('second')) // the run was still going
    journal.close()
    const resultsFile = path.join(runDir, 'results.json')
    // What the earlier rebuild's file knew beyond the journal's first line.
    const earlier = withRunExtensions(JOURNAL_RUN, {
      selection: FIRST_ONLY,
      completion: { ...TYPO_FAILED, ending: 'killed' },
      datasets: ['/datasets/restaurant.json', 'specs/own.spec.ts'],
    })
    writeFileSync(
      resultsFile,
      jsonArtifactText(buildResultsDocument(earlier, [passedRow('first')], JOURNAL_ORDER)),
    )
    const rebuilt = await results(runDir)
    expect(rebuilt.stdout).toContain(`rebuilt ${resultsFile}: 2 rows `)
    const { run } = parseResultsDocument(readFileSync(resultsFile, 'utf8'), { source: resultsFile })
    expect(run.configuration.live_evals).toEqual({
      version: '1.0',
      selection: FIRST_ONLY,
      completion: { ...TYPO_FAILED, ending: 'killed', finished_rows: 2 },
      datasets: ['/datasets/restaurant.json', 'specs/own.spec.ts'],
    })
  })

  it('ends a journal whose last line was cut by the kill on a line of its own', async () => {
    const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
    journal.append(passedRow('first'))
    journal.close()
    appendFileSync(path.join(runDir, 'rows.jsonl'), '{"key": {"scenario_id": "sec')
    expect((await results(runDir)).code).toBe(0)
    const read = readRowsJournal(runDir)
    expect(read).toMatchObject({ end: { reason: 'killed' }, tornLastLine: null })
    expect(read.rows).toHaveLength(1)
  })

  it('a run that was still running when rebuilt goes on journaling; its own end supersedes', async () => {
    const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
    journal.append(passedRow('first'))
    expect((await results(runDir)).code).toBe(0)
    journal.append(passedRow('second'))
    journal.end('passed')
    journal.close()
    const read = readRowsJournal(runDir)
    expect(read.end).toMatchObject({ reason: 'passed' })
    expect(read.rows.map((row) => row.scenario_id)).toEqual(['first', 'second'])
  })

  it('rebuilds each shard journal into its own results file', async () => {
    for (const shard of ['shard-1-of-2', 'shard-2-of-2']) {
      const journal = await RowsJournal.create(runDir, {
        run: JOURNAL_RUN,
        datasetOrder: JOURNAL_ORDER,
        resultsFile: `results.${shard}.json`,
      })
      journal.append(passedRow(shard === 'shard-1-of-2' ? 'first' : 'third'))
      journal.end('passed')
      journal.close()
    }
    const result = await results(runDir)
    expect(result.code).toBe(0)
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringContaining(`rebuilt ${path.join(runDir, 'results.shard-1-of-2.json')}: 1 row `),
      expect.stringContaining(`rebuilt ${path.join(runDir, 'results.shard-2-of-2.json')}: 1 row `),
    ])
    expect(result.stdout).toContain('; the run had ended.')
  })

  it('refuses plainly: no journal, a damaged journal, a symlinked folder', async () => {
    expect(await results(runDir)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('has no rows journal'),
    })
    writeFileSync(path.join(runDir, 'rows.jsonl'), '{"journal": "live-evals rows"}\n')
    const damaged = await results(runDir)
    expect(damaged.code).toBe(1)
    expect(damaged.stderr).toContain(
      `The rows journal ${path.join(runDir, 'rows.jsonl')} is damaged at line 1`,
    )
    symlinkSync(runDir, path.join(root, 'alias'))
    const linked = await results(path.join(root, 'alias'))
    expect(linked.stderr).toContain('the run folder is a symbolic link')
    for (const outcome of [damaged, linked]) expect(outcome.stderr).not.toMatch(/\n\s+at /)
    expect(() => readFileSync(path.join(runDir, 'results.json'))).toThrow()
  })

  it('knows its usage', async () => {
    expect((await results()).code).toBe(2)
    expect((await results(runDir, runDir)).code).toBe(2)
    expect((await results('--force', runDir)).stderr).toContain('unknown option --force')
    expect((await results('--help')).stdout).toContain('Usage: live-evals results <run-dir>')
  })

  // One real process, through the installed command; nothing here is a timing claim.
  it('runs as the installed command', { timeout: 60_000 }, async () => {
    const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: JOURNAL_ORDER })
    journal.append(passedRow('first'))
    journal.close()
    const repository = path.resolve(import.meta.dirname, '..', '..')
    const { stdout } = await promisify(execFile)(process.execPath, ['bin/live-evals.js', 'results', runDir], {
      cwd: repository,
    })
    expect(stdout).toContain(`rebuilt ${path.join(runDir, 'results.json')}: 1 row `)
  })
})
