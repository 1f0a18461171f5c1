import { describe, expect, test } from 'vitest'
import { passingRowInput } from '../src/reporting/reporting-fixtures.ts'
import { buildResultRow, infrastructureErrorRow } from '../src/reporting/result-item.ts'
import { ResultsDocumentSchema } from '../src/reporting/result-schema.ts'
import { withAssistant } from '../src/reporting/row-assistant.ts'
import { initialMeta } from '../src/vitest/meta.ts'
import { plannedRunFixture } from '../src/vitest/planned-run.test-helpers.ts'
import type { PlannedRun, RunPlan } from '../src/vitest/run-plan-schema.ts'
import {
  consoleSummaryLines,
  type FinishedScenarioTest,
  resultsDocumentOf,
  rowsOfRun,
} from './run-results.ts'

const plannedRun = (architecture: 'responses' | 'client') => plannedRunFixture({ architecture })

const responses = plannedRun('responses')
const client = plannedRun('client')
const plan: Pick<RunPlan, 'phase' | 'scenarioIds'> = {
  phase: 'crawl',
  scenarioIds: ['first', 'second', 'third'],
}

function finishedTest(
  scenarioId: string,
  run: PlannedRun,
  state: FinishedScenarioTest['state'],
  withRow: boolean,
  errors: string[] = [],
): FinishedScenarioTest {
  const meta = initialMeta({
    phase: 'crawl',
    scenarioId,
    scenarioType: 'booking',
    architecture: run.architecture,
    runDirectory: run.directory,
  })
  if (withRow) meta.row = buildResultRow(passingRowInput({ scenario_id: scenarioId }))
  return { name: `title of ${scenarioId}`, state, meta, errors }
}

describe('rowsOfRun', () => {
  test("keeps only this run's executed tests and uses their recorded rows", () => {
    const rows = rowsOfRun(responses, [
      finishedTest('second', responses, 'passed', true),
      finishedTest('first', client, 'passed', true),
      finishedTest('third', responses, 'skipped', false),
      { name: 'a unit test', state: 'passed', meta: undefined, errors: [] },
    ])
    expect(rows.map((row) => row.scenario_id)).toEqual(['second'])
    expect(rows[0]?.status).toBe('passed')
  })

  test('a second row of one scenario and trial is left out and named, never thrown', () => {
    const printed: string[] = []
    const duplicates: unknown[] = []
    const second = {
      ...finishedTest('first', responses, 'failed', true),
      name: 'the copy',
      specFile: '/project/specs/copy.spec.ts',
    }
    const rows = rowsOfRun(
      responses,
      [
        { ...finishedTest('first', responses, 'passed', true), specFile: '/project/specs/first.spec.ts' },
        second,
        finishedTest('second', responses, 'passed', true),
      ],
      {
        projectRoot: '/project',
        onDuplicate: (duplicate) => duplicates.push(duplicate),
        log: (line) => printed.push(line),
      },
    )
    expect(rows.map((row) => row.scenario_id)).toEqual(['first', 'second'])
    // Recorded as a refused duplicate, so results.json is marked incomplete as when the claim refused it.
    expect(duplicates).toEqual([
      { scenario_id: 'first', trial: 1, ran_in: 'specs/first.spec.ts', refused_in: 'specs/copy.spec.ts' },
    ])
    expect(printed).toEqual([
      '[responses] Scenario "first" trial 1 has a second row (test "the copy" after "title of first"): ' +
        'results.json keeps the first and is marked incomplete; evaluate each scenario from one spec file',
    ])
    expect(() => resultsDocumentOf(plan, responses, rows)).not.toThrow()
  })

  test('a WALK test that ended without a row still echoes the recording it was to play', () => {
    const recording = { id: 'take', path: 'audio/take.wav', condition: 'noisy', metadata: {} }
    const test = finishedTest('first', responses, 'failed', false, ['Test timed out in 5000ms.'])
    if (test.meta !== undefined) test.meta.recording = recording
    expect(rowsOfRun(responses, [test])[0]?.recording).toEqual(recording)
  })

  test('a row sealed without a recording (its request could not be read) names the one the test was to play', () => {
    const recording = { id: 'take', path: 'audio/missing.wav', condition: 'noisy', metadata: { seed: 7 } }
    const test = finishedTest('first', responses, 'failed', false, ['cannot read audio/missing.wav'])
    if (test.meta === undefined) throw new Error('no meta')
    test.meta.recording = recording
    test.meta.row = infrastructureErrorRow({
      scenario_id: 'first',
      stage: 'input_setup',
      message: 'cannot read audio/missing.wav',
    })
    const [row] = rowsOfRun(responses, [test])
    expect(row?.error?.stage).toBe('input_setup')
    expect(row?.recording).toEqual(recording)
  })

  test("a row with the execution's own recording keeps it", () => {
    const measured = { id: 'take', path: 'audio/take.wav', condition: 'noisy', metadata: { measured: true } }
    const test = finishedTest('first', responses, 'passed', true)
    if (test.meta === undefined || test.meta.row === null) throw new Error('no row')
    test.meta.row = { ...test.meta.row, recording: measured }
    test.meta.recording = { ...measured, metadata: {} }
    expect(rowsOfRun(responses, [test])[0]?.recording).toEqual(measured)
  })

  test('a test stopped because another spec file ran its scenario first gives no row', () => {
    const stopped = finishedTest('first', responses, 'failed', false, ['evaluated twice'])
    if (stopped.meta !== undefined)
      stopped.meta.duplicateOf = {
        firstSpecFile: '/p/specs/todo.spec.ts',
        specFile: '/p/specs/todo2.spec.ts',
      }
    expect(rowsOfRun(responses, [stopped])).toEqual([])
  })

  test('a test that ended without a row becomes an infrastructure error with null metrics', () => {
    const [row] = rowsOfRun(responses, [
      finishedTest('first', responses, 'failed', false, ['Test timed out in 5000ms.']),
    ])
    expect(row).toEqual(
      infrastructureErrorRow({
        scenario_id: 'first',
        title: 'title of first',
        stage: 'example_execution',
        message: 'Test timed out in 5000ms.',
      }),
    )
    expect(row?.metrics.task.tool_calls).toBeNull()
  })
})

describe('results document and console summary', () => {
  test('rows follow dataset order, the document validates, the summary counts only the scenarios that ran', () => {
    const rows = rowsOfRun(responses, [
      finishedTest('third', responses, 'failed', false, ['boom']),
      finishedTest('first', responses, 'passed', true),
    ])
    const document = resultsDocumentOf(plan, responses, rows)
    expect(ResultsDocumentSchema.parse(document)).toEqual(document)
    expect(document.results.map((row) => row.scenario_id)).toEqual(['first', 'third'])
    expect(document.run).toEqual(responses.metadata)
    expect(document.summary).toEqual({ total: 2, passed: 1, failed: 0, infrastructure_errors: 1 })
    expect(consoleSummaryLines(plan, responses, document)).toEqual([
      // `second` was filtered out (-t, or skipped): the denominator is the 2 that ran, not the dataset's 3.
      '[responses] Completed 1/2 valid examples; 1 passed; 0 failed; 1 infrastructure failures.',
      `Results: ${responses.directory}`,
    ])
  })

  test('a run of several models names each line by model and architecture; one model keeps the plain label', () => {
    const rows = rowsOfRun(responses, [finishedTest('first', responses, 'passed', true)]).map((row) =>
      withAssistant(row, 'juniper-table'),
    )
    const onModel = (run: PlannedRun, model: string, multiModel: boolean): PlannedRun => ({
      ...run,
      model,
      multiModel,
    })
    const matrix = onModel(responses, 'gpt-live-1.1', true)
    // The assistants line is one of the run's extension lines: it takes the same label.
    const document = resultsDocumentOf(plan, matrix, rows)
    expect(consoleSummaryLines(plan, matrix, document)).toEqual([
      '[gpt-live-1.1/responses] Completed 1/1 valid examples; 1 passed; 0 failed; 0 infrastructure failures.',
      '[gpt-live-1.1/responses] Assistant under test: juniper-table.',
      `Results: ${responses.directory}`,
    ])
    expect(consoleSummaryLines(plan, onModel(responses, 'gpt-live-1', false), document)).toEqual([
      '[responses] Completed 1/1 valid examples; 1 passed; 0 failed; 0 infrastructure failures.',
      '[responses] Assistant under test: juniper-table.',
      `Results: ${responses.directory}`,
    ])
  })
})
