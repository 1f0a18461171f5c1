// A run that ends by itself journals every row as it finishes and ends its journal: the tiny fixture project with
// --retry=1 (the shared run `tinyRetried`, shared-child-run.test-helpers.ts), where the wrong-tool scenario fails
// twice (a retried test reports once, after its last attempt).
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { readRowsJournal } from '../artifacts/rows-journal-read.ts'
import { loadGateFile } from '../gate/load.ts'
import { ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { runDirectoriesIn, SPAWN_TIMEOUT_MS } from './child-vitest.test-helpers.ts'
import { sharedChildRun } from './shared-child-run.test-helpers.ts'

test('a finished run: one journal row per scenario (retries included), the end line, results.json unmarked, its report not partial', {
  timeout: SPAWN_TIMEOUT_MS,
}, async () => {
  // The run integration.test.ts reads too (the reporters it adds beside ours change nothing here).
  const run = await sharedChildRun('tinyRetried')
  expect(run.code, run.output).toBe(1) // the wrong-tool scenario fails
  const [name] = await runDirectoriesIn(join(run.dir, 'results'))
  const runDir = join(run.dir, 'results', name ?? '')
  const journal = readRowsJournal(runDir)
  expect(journal.end?.reason).toBe('failed')
  expect(journal.tornLastLine).toBeNull()
  const document = ResultsDocumentSchema.parse(
    JSON.parse(await readFile(join(runDir, 'results.json'), 'utf8')),
  )
  // The journal's rows are the results' rows (each once, the final attempt's), in the order they finished.
  expect(
    [...journal.rows].sort((a, b) => String(a.scenario_id).localeCompare(String(b.scenario_id))),
  ).toEqual([...document.results].sort((a, b) => a.scenario_id.localeCompare(b.scenario_id)))
  expect(document.results.map((row) => row.status)).toEqual(['failed', 'passed'])
  // Nothing beyond the assistant under test (the bundled example): no completion, no datasets.
  expect(document.run.configuration.live_evals).toEqual({ version: '1.0', assistants: ['juniper-table'] })
  expect((await loadGateFile(join(runDir, 'results.json'))).partial).toBeNull()
  expect(run.output).toContain(`Report: ${join(runDir, 'report.html')}`)
  expect((await stat(join(runDir, 'report.html'))).isFile()).toBe(true)
  // The report was written after the journal's end line: it does not call the finished run partial.
  const report = await readFile(join(runDir, 'report.html'), 'utf8')
  expect(report).not.toContain('Partial results')
  expect(report).not.toContain('has no end line')
})
