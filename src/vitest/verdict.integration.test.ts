// The one-verdict rule end to end: a child Vitest runs one scenario per way a test can end (src/vitest/fixtures/
// verdict, in the shared run of the fixture projects), and what Vitest reports about each test equals what
// results.json says about its row.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { type ResultItem, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { SPAWN_TIMEOUT_MS } from './child-vitest.test-helpers.ts'
import {
  type FixtureProjectPart,
  fixtureProjectPart,
  type JsonReportTest,
} from './fixture-projects.test-helpers.ts'

describe('one verdict: Vitest state equals the results.json row', () => {
  // The verdict project's part of the shared run of the fixture projects (fixture-projects.test-helpers.ts).
  let part: FixtureProjectPart
  let runDirectory = ''
  const states = new Map<string, JsonReportTest>()
  const rows = new Map<string, ResultItem>()
  let summary = { total: 0, passed: 0, failed: 0, infrastructure_errors: 0 }

  beforeAll(async () => {
    part = await fixtureProjectPart('verdict')
    for (const test of part.tests) {
      const id = /\b(v_\w+)\b/.exec(test.fullName)?.[1]
      if (id !== undefined) states.set(id, test)
    }
    expect(part.runDirectories, part.run.output).toHaveLength(1)
    runDirectory = part.runDirectories[0] ?? ''
    const document = ResultsDocumentSchema.parse(
      JSON.parse(await readFile(join(runDirectory, 'results.json'), 'utf8')),
    )
    for (const row of document.results) rows.set(row.scenario_id, row)
    summary = document.summary
  }, SPAWN_TIMEOUT_MS)

  const failedChecks = (id: string) =>
    (rows.get(id)?.assessment?.checks ?? [])
      .filter((check) => check.required && check.status === 'failed')
      .map((check) => check.id)

  test('every test has a row, and passed in Vitest exactly when its row passed', () => {
    expect(part.files.get('verdict.spec.ts')?.status).toBe('failed')
    expect([...states.keys()].sort()).toEqual([...rows.keys()].sort())
    for (const [id, state] of states) {
      expect({ id, passed: state.status === 'passed' }).toEqual({
        id,
        passed: rows.get(id)?.status === 'passed',
      })
    }
    expect(summary).toEqual({ total: 5, passed: 1, failed: 4, infrastructure_errors: 0 })
    expect(part.printedAbout(runDirectory)).toContain(
      '[responses] Completed 5/5 valid examples; 1 passed; 4 failed; 0 infrastructure failures.',
    )
  })

  test('a passing body leaves a passed row', () => {
    expect(states.get('v_pass')?.status).toBe('passed')
    expect(rows.get('v_pass')?.status).toBe('passed')
  })

  test('a failing matcher fails the row with an assertion check named after it', () => {
    expect(states.get('v_matcher')?.status).toBe('failed')
    expect(failedChecks('v_matcher')).toEqual(['assertion:toMatchToolCalls'])
    expect(rows.get('v_matcher')?.metrics.task.task_completed).toBe(false)
  })

  test('a failing expect in the body fails the row, named by its message', () => {
    expect(failedChecks('v_expect')).toEqual(['assertion:expected +0 to be 41 // Object.is equality'])
  })

  test('a thrown error fails the row', () => {
    expect(failedChecks('v_throw')).toEqual(['assertion:the test body exploded'])
  })

  test('a failed task that the body never asserted fails the test, naming the failed checks', () => {
    expect(rows.get('v_unasserted')?.status).toBe('failed')
    const state = states.get('v_unasserted')
    expect(state?.status).toBe('failed')
    expect(state?.failureMessages.join('\n')).toContain('results.json records the task as failed')
  })
})
