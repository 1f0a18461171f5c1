// The run features that are a function of the rows are recomputed whenever a document is built.
import { describe, expect, test } from 'vitest'
import { row } from '../gate/gate.test-helpers.ts'
import { EXTENSION_KEY } from './extensions/registry.ts'
import type { RunMetadata } from './result-schema.ts'
import { buildResultsDocument, withRunExtensions } from './results-document.ts'

const run: RunMetadata = {
  id: 'walk_offline_20261201_000000_000Z',
  module: 'walk',
  execution_mode: 'offline_fixture',
  interaction: 'single_turn',
  dataset: '/data/walk.json',
  configuration: { assistant_mode: 'client' },
}

describe('row-derived run features', () => {
  test('a run without trials or conditions stays the reference shape: no block at all', () => {
    const document = buildResultsDocument(run, [row({ id: 'a' })], ['a'])
    expect(document.run).toEqual(run)
  })
  test('trials appear with the rows that carry trial numbers, beside the features the block had', () => {
    const withDatasets = withRunExtensions(run, { datasets: ['/data/walk.json', '/specs/own.spec.ts'] })
    const rows = [1, 2].map((trial) => row({ id: 'a', trial }))
    const block = buildResultsDocument(withDatasets, rows, ['a']).run.configuration[EXTENSION_KEY]
    expect(block?.datasets).toEqual(['/data/walk.json', '/specs/own.spec.ts'])
    expect(block?.trials).toMatchObject({ k: 2, pass_1: 1, pass_k: 1 })
  })
  test('a block carried over from other rows is replaced by the figures of these rows', () => {
    const first = buildResultsDocument(
      run,
      [1, 2].map((trial) => row({ id: 'a', trial })),
      ['a'],
    )
    const rebuilt = buildResultsDocument(first.run, [row({ id: 'a' })], ['a'])
    expect(rebuilt.run.configuration[EXTENSION_KEY]).toBeUndefined()
  })
  test('withRunExtensions adds to the block instead of replacing it', () => {
    const once = withRunExtensions(run, { datasets: ['/one.json'] })
    const twice = withRunExtensions(once, {
      tool_evidence: { source: 'remote_service', architecture_only_comparison: false },
    })
    expect(twice.configuration[EXTENSION_KEY]).toMatchObject({
      datasets: ['/one.json'],
      tool_evidence: { source: 'remote_service' },
    })
  })
})
