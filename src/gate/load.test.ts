// The gate reads partial results from the registered `completion` marker that interrupted and rebuilt runs carry:
// a results.json written by the journal code (not a hand-made fixture) is recognised as partial.
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { RowsJournal } from '../artifacts/rows-journal.ts'
import { rebuildResultsFile, writeInterruptedResultsSync } from '../artifacts/rows-journal-read.ts'
import { writeJsonArtifact } from '../artifacts/write.ts'
import { runCompletion } from '../reporting/extensions/completion.ts'
import { buildResultsDocument, withRunExtensions } from '../reporting/results-document.ts'
import { withTrial } from '../reporting/row-key.ts'
import { DEFAULT_GATE_OPTIONS, evaluateGate } from './evaluate.ts'
import { resultsDocument, row } from './gate.test-helpers.ts'
import { loadGateFile, MAX_RESULTS_FILE_BYTES } from './load.ts'

let runDir = ''
beforeEach(async () => {
  runDir = await mkdtemp(join(tmpdir(), 'live-evals-gate-load-'))
})
afterEach(async () => rm(runDir, { recursive: true, force: true }))

const base = resultsDocument([row({ id: 'a' }), row({ id: 'b' })])
const start = { run: base.run, datasetOrder: ['a', 'b', 'c'] }

describe('partial results in the gate', () => {
  test('an interrupted run (written from its journal at the signal) is partial, and refused unless allowed', async () => {
    const journal = await RowsJournal.create(runDir, start)
    for (const result of base.results) journal.append(result)
    const path = writeInterruptedResultsSync(journal)
    journal.close()
    const file = await loadGateFile(path)
    expect(file.partial).toBe(
      'the run was interrupted after 2 of 3 planned scenarios (run.configuration.live_evals.completion)',
    )
    expect(() => evaluateGate([file], [], DEFAULT_GATE_OPTIONS)).toThrow('--allow-partial')
    const allowed = evaluateGate([file], [], { ...DEFAULT_GATE_OPTIONS, allowPartial: true })
    expect(allowed.outcome).toBe('pass')
  })

  test('a killed run rebuilt by live-evals results is partial even with its journal gone', async () => {
    const journal = await RowsJournal.create(runDir, start)
    journal.append(base.results[0] as (typeof base.results)[number])
    journal.close()
    const { path } = await rebuildResultsFile(runDir)
    await rm(join(runDir, 'rows.jsonl'))
    expect((await loadGateFile(path)).partial).toBe(
      'the run was killed after 1 of 3 planned scenarios (run.configuration.live_evals.completion)',
    )
  })

  test('a killed trials run counts trials: its rows of the trials planned for its scenarios', async () => {
    const journal = await RowsJournal.create(runDir, { ...start, trials: 2 })
    journal.append(withTrial(row({ id: 'a' }), 1))
    journal.append(withTrial(row({ id: 'a' }), 2))
    journal.append(withTrial(row({ id: 'b' }), 1))
    journal.close()
    const { path } = await rebuildResultsFile(runDir)
    expect((await loadGateFile(path)).partial).toBe(
      'the run was killed after 3 of 6 planned trials of 3 scenarios (run.configuration.live_evals.completion)',
    )
  })

  test('a stopped run whose marker still lists failed spec files and refused duplicates names them too', async () => {
    const run = withRunExtensions(base.run, {
      completion: runCompletion({
        stopped: 'killed',
        failedSpecFiles: [{ file: 'specs/typo.spec.ts', error: 'no such dataset' }],
        duplicates: [
          { scenario_id: 'a', trial: 1, ran_in: 'specs/a.spec.ts', refused_in: 'specs/b.spec.ts' },
        ],
        finishedRows: 2,
        plannedScenarios: 3,
      }),
    })
    await writeJsonArtifact(runDir, 'results.json', buildResultsDocument(run, base.results, ['a', 'b']))
    expect((await loadGateFile(join(runDir, 'results.json'))).partial).toBe(
      'the run was killed after 2 of 3 planned scenarios; also spec file of the run failed before its scenarios ' +
        'ran: specs/typo.spec.ts (no such dataset); also scenarios evaluated by two spec files ran in whichever ' +
        'claimed them first: "a" trial 1 ran in specs/a.spec.ts, refused in specs/b.spec.ts ' +
        '(run.configuration.live_evals.completion)',
    )
  })

  test('a run that ended by itself carries no marker and is whole', async () => {
    const journal = await RowsJournal.create(runDir, start)
    for (const result of base.results) journal.append(result)
    journal.end('passed')
    journal.close()
    await writeJsonArtifact(runDir, 'results.json', buildResultsDocument(base.run, base.results, ['a', 'b']))
    const file = await loadGateFile(join(runDir, 'results.json'))
    expect(file.document.run.configuration.live_evals).toBeUndefined()
    expect(file.partial).toBeNull()
  })
})

describe('an oversized results file', () => {
  test('is refused by its size, naming the file and the limit', async () => {
    const path = join(runDir, 'results.json')
    // A sparse file: its size is over the limit without writing 256 MiB.
    await writeFile(path, '')
    await truncate(path, MAX_RESULTS_FILE_BYTES + 1)
    await expect(loadGateFile(path)).rejects.toThrow(
      `${path}: is ${MAX_RESULTS_FILE_BYTES + 1} bytes, over the ${MAX_RESULTS_FILE_BYTES}-byte limit`,
    )
  })
})
