import { describe, expect, test } from 'vitest'
import { passingRowInput } from './reporting-fixtures.ts'
import { buildResultRow } from './result-item.ts'
import { ResultsDocumentSchema, type RunMetadata } from './result-schema.ts'
import { buildResultsDocument } from './results-document.ts'
import { summarizeResults } from './summary.ts'

const run: RunMetadata = {
  id: 'crawl_offline_20260818_000000_000Z',
  module: 'crawl',
  execution_mode: 'offline_fixture',
  interaction: 'single_turn',
  dataset: '/data/scenarios.json',
  configuration: { audio_source: 'synthetic', concurrency: 2 },
}

describe('buildResultsDocument', () => {
  test('keeps dataset order, counts executions only, and validates as schema 2.0', () => {
    const rows = [
      buildResultRow(passingRowInput({ scenario_id: 'b', task_completed: false })),
      buildResultRow(passingRowInput({ scenario_id: 'c', raw_status: 'error' })),
      buildResultRow(passingRowInput({ scenario_id: 'a' })),
    ]
    const document = buildResultsDocument(run, rows, ['a', 'b', 'c'])
    expect(document.schema_version).toBe('2.0')
    expect(document.results.map((row) => row.scenario_id)).toEqual(['a', 'b', 'c'])
    expect(document.summary).toEqual({ total: 3, passed: 1, failed: 1, infrastructure_errors: 1 })
    expect(Object.keys(document)).toEqual(['schema_version', 'run', 'summary', 'results'])
    expect(ResultsDocumentSchema.parse(JSON.parse(JSON.stringify(document)))).toEqual(document)
  })
  test('a corrupted row becomes a result_validation row while the others stay', () => {
    const good = buildResultRow(passingRowInput({ scenario_id: 'a' }))
    const corrupted = structuredClone(buildResultRow(passingRowInput({ scenario_id: 'b' }))) as Record<
      string,
      unknown
    >
    ;(corrupted.metrics as { task: Record<string, unknown> }).task.task_completed = 'true'
    const document = buildResultsDocument(run, [good, corrupted], ['a', 'b'])
    expect(document.results[0]).toEqual(good)
    expect(document.results[1]?.status).toBe('infrastructure_error')
    expect(document.results[1]?.error?.stage).toBe('result_validation')
    expect(document.summary).toEqual({ total: 2, passed: 1, failed: 0, infrastructure_errors: 1 })
  })
  test('rows for ids outside the dataset come last in arrival order', () => {
    const rows = ['x', 'a', 'y'].map((id) => buildResultRow(passingRowInput({ scenario_id: id })))
    expect(buildResultsDocument(run, rows, ['a']).results.map((row) => row.scenario_id)).toEqual([
      'a',
      'x',
      'y',
    ])
  })
  test('invalid run metadata is refused with the field named', () => {
    expect(() => buildResultsDocument({ ...run, module: 'sprint' as never }, [], [])).toThrow('run.module')
  })
  test('summary has no scores', () => {
    expect(Object.keys(summarizeResults([]))).toEqual(['total', 'passed', 'failed', 'infrastructure_errors'])
  })
})
