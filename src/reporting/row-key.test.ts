import { describe, expect, test } from 'vitest'
import { DuplicateResultRowError } from './errors.ts'
import { passingRowInput } from './reporting-fixtures.ts'
import { buildResultRow } from './result-item.ts'
import type { RunMetadata } from './result-schema.ts'
import { buildResultsDocument } from './results-document.ts'
import { DEFAULT_TRIAL, rowKeyOf, trialArtifactName, withTrial } from './row-key.ts'

const run: RunMetadata = {
  id: 'crawl_offline_20261201_000000_000Z',
  module: 'crawl',
  execution_mode: 'offline_fixture',
  interaction: 'single_turn',
  dataset: '/data/scenarios.json',
  configuration: {},
}

const row = (scenario_id: string, trial?: number) =>
  buildResultRow(passingRowInput({ scenario_id, ...(trial === undefined ? {} : { extensions: { trial } }) }))

function duplicateError(action: () => unknown): DuplicateResultRowError {
  try {
    action()
  } catch (error) {
    if (error instanceof DuplicateResultRowError) return error
    throw error
  }
  throw new Error('no duplicate was reported')
}

describe('row keys', () => {
  test('a row without a trials setting is trial 1', () => {
    expect(DEFAULT_TRIAL).toBe(1)
    expect(rowKeyOf(row('a'))).toEqual({ scenario_id: 'a', trial: 1 })
    expect(rowKeyOf(row('a', 3))).toEqual({ scenario_id: 'a', trial: 3 })
  })
  test('repeated trials of one scenario are distinct rows, reported in dataset order then trial order', () => {
    const document = buildResultsDocument(
      run,
      [row('b', 2), row('a', 2), row('b', 1), row('a', 1)],
      ['a', 'b'],
    )
    expect(document.results.map((item) => [item.scenario_id, rowKeyOf(item).trial])).toEqual([
      ['a', 1],
      ['a', 2],
      ['b', 1],
      ['b', 2],
    ])
    expect(document.summary.total).toBe(4)
  })
  test('the same key twice is refused naming both rows and where they came from', () => {
    const error = duplicateError(() =>
      buildResultsDocument(run, [row('a'), row('b'), row('a')], ['a', 'b'], {
        origins: ['specs/crawl/one.spec.ts', 'specs/crawl/one.spec.ts', 'specs/crawl/two.spec.ts'],
      }),
    )
    expect(error.message).toContain(
      'scenario "a" trial 1 twice: rows[0] (from specs/crawl/one.spec.ts) and rows[2] (from specs/crawl/two.spec.ts)',
    )
    expect(error.positions).toEqual([0, 2])
    expect(error.scenario_id).toBe('a')
  })
  test('without origins the positions alone name the rows', () => {
    const error = duplicateError(() => buildResultsDocument(run, [row('a', 2), row('a', 2)], ['a']))
    expect(error.message).toContain('trial 2 twice: rows[0] and rows[1].')
  })
  test('an explicit trial 1 and a row without a trial are the same key', () => {
    expect(() => buildResultsDocument(run, [row('a', 1), row('a')], ['a'])).toThrow(DuplicateResultRowError)
  })
  test('ids outside the dataset come after it, grouped in first-arrival order', () => {
    const document = buildResultsDocument(run, [row('y', 2), row('x'), row('a'), row('y', 1)], ['a'])
    expect(document.results.map((item) => `${item.scenario_id}#${rowKeyOf(item).trial}`)).toEqual([
      'a#1',
      'y#1',
      'y#2',
      'x#1',
    ])
  })
})

describe('trials: the row key and the artifact folder', () => {
  test('withTrial sets the trial extension, keeping the rest of the block and the row', () => {
    const plain = row('a')
    const second = withTrial(plain, 2)
    expect(rowKeyOf(second)).toEqual({ scenario_id: 'a', trial: 2 })
    expect(second.observability?.live_evals).toEqual({ version: '1.0', trial: 2 })
    expect(withTrial(plain, null)).toBe(plain)
    // the row stays a valid schema 2.0 row
    expect(buildResultsDocument(run, [second, withTrial(plain, 1)], ['a']).results.map(rowKeyOf)).toEqual([
      { scenario_id: 'a', trial: 1 },
      { scenario_id: 'a', trial: 2 },
    ])
  })
  test('every trial of a trials run has its own artifact folder; a run without trials keeps the id', () => {
    expect(trialArtifactName('restaurant_001', null)).toBe('restaurant_001')
    expect(trialArtifactName('restaurant_001', 1)).toBe('restaurant_001__t1')
    expect(trialArtifactName('restaurant_001', 2)).toBe('restaurant_001__t2')
    // an id that looks like another's trial folder still gets a folder of its own in a trials run
    expect(trialArtifactName('restaurant_001__t2', 1)).toBe('restaurant_001__t2__t1')
  })
})
