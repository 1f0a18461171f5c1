import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { resultsDocument, row } from '../src/gate/gate.test-helpers.ts'
import { finishedIncomplete, loadGateFile } from '../src/gate/load.ts'
import { runCompletion } from '../src/reporting/extensions/completion.ts'
import { withRunExtensions } from '../src/reporting/results-document.ts'
import type { LiveEvalsTaskMeta } from '../src/vitest/meta.ts'
import { duplicateScenariosOf } from './duplicate-scenarios.ts'
import { runExtensionLines } from './run-extension-lines.ts'
import type { FinishedScenarioTest } from './run-results.ts'
import { runSummaryLine } from './summary-line.ts'

const RUN = { directory: '/p/results/crawl/run_responses' }

function refused(scenarioId: string, firstSpecFile: string | null, trial?: number): FinishedScenarioTest {
  const meta = {
    scenarioId,
    runDirectory: RUN.directory,
    row: null,
    duplicateOf: { firstSpecFile, specFile: '/p/specs/todo2.spec.ts' },
  } as unknown as LiveEvalsTaskMeta
  return { name: scenarioId, state: 'failed', meta, errors: [], ...(trial === undefined ? {} : { trial }) }
}

const ran: FinishedScenarioTest = { ...refused('hours', null), state: 'passed' }
if (ran.meta !== undefined) delete ran.meta.duplicateOf

describe('a scenario refused because another spec file ran it first', () => {
  const tests = [ran, refused('wrong_tool', '/p/specs/todo.spec.ts', 2), refused('add', null)]
  const duplicates = duplicateScenariosOf(RUN, tests, '/p')

  test('names each refused scenario and trial with both spec files, relative to the project root', () => {
    expect(duplicates).toEqual([
      { scenario_id: 'add', trial: 1, ran_in: null, refused_in: 'specs/todo2.spec.ts' },
      {
        scenario_id: 'wrong_tool',
        trial: 2,
        ran_in: 'specs/todo.spec.ts',
        refused_in: 'specs/todo2.spec.ts',
      },
    ])
    expect(duplicateScenariosOf({ directory: '/elsewhere' }, tests, '/p')).toEqual([])
  })

  test('marks the run incomplete in results.json; a spec file that failed to load keeps its ending', () => {
    const counts = { finishedRows: 1, plannedScenarios: 3 }
    expect(runCompletion({ ...counts, duplicates: [] })).toBeUndefined()
    expect(runCompletion({ ...counts, duplicates })).toEqual({
      ending: 'duplicate_scenarios',
      finished_rows: 1,
      planned_scenarios: 3,
      duplicate_scenarios: duplicates,
    })
    const failedSpecFiles = [{ file: 'specs/x.spec.ts', error: 'boom' }]
    expect(runCompletion({ ...counts, failedSpecFiles, duplicates })).toEqual({
      ending: 'spec_files_failed',
      finished_rows: 1,
      planned_scenarios: 3,
      failed_spec_files: failedSpecFiles,
      duplicate_scenarios: duplicates,
    })
    // A run stopped early names that ending; what it knew of spec files and duplicates stays listed.
    expect(runCompletion({ ...counts, stopped: 'killed', failedSpecFiles })).toEqual({
      ending: 'killed',
      finished_rows: 1,
      planned_scenarios: 3,
      failed_spec_files: failedSpecFiles,
    })
  })

  test('the run lines and the closing line say so', () => {
    const completion = runCompletion({
      duplicates: duplicates.slice(1),
      finishedRows: 1,
      plannedScenarios: 2,
    })
    const document = resultsDocument([row({ id: 'hours' })])
    document.run = withRunExtensions(document.run, { completion })
    expect(runExtensionLines('responses', document)).toEqual([
      '[responses] Incomplete: scenarios evaluated by two spec files ran in whichever claimed them first (not ' +
        'deterministic): "wrong_tool" trial 2 ran in specs/todo.spec.ts, refused in specs/todo2.spec.ts; ' +
        'results.json is marked partial (the gate refuses it without --allow-partial).',
    ])
    expect(runSummaryLine(tests, [])).toBe(
      '1 passed, 2 failed; 2 scenario tests were refused because another spec file ran their scenario first, so ' +
        'the results are marked incomplete',
    )
  })

  test('the gate refuses the run without --allow-partial', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'duplicate-scenarios-'))
    try {
      const document = resultsDocument([row({ id: 'hours' })])
      document.run = withRunExtensions(document.run, {
        completion: runCompletion({ duplicates, finishedRows: 1, plannedScenarios: 3 }),
      })
      const path = join(folder, 'results.json')
      await writeFile(path, JSON.stringify(document))
      const { partial } = await loadGateFile(path)
      // Its own words: which scenarios, where each ran and where it was refused (not "was interrupted").
      expect(partial).toContain('scenarios evaluated by two spec files ran in whichever claimed them first')
      expect(partial).not.toContain('interrupted')
      expect(finishedIncomplete(document.run)).toBe(true)
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })
})
