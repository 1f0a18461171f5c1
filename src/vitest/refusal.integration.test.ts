// A refusal scenario written both ways, run offline in a child Vitest (the shared run of the fixture projects): a
// tool that throws to refuse (a failed execution, expected with status 'failed') and a tool that returns its
// refusal (a completed execution, the default status). Both pass; the thrown one is recorded as the failed execution it is. A third spec expects a
// tool its assistant does not define: it fails when collected, by name, and nothing of it runs.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { SPAWN_TIMEOUT_MS } from './child-vitest.test-helpers.ts'
import { type FixtureProjectPart, fixtureProjectPart } from './fixture-projects.test-helpers.ts'

describe('a refusal written both ways', () => {
  // The refusal project's part of the shared run of the fixture projects (fixture-projects.test-helpers.ts).
  let part: FixtureProjectPart
  let documents: ResultsDocument[] = []

  beforeAll(async () => {
    part = await fixtureProjectPart('refusal')
    documents = await Promise.all(
      part.runDirectories.map(async (directory) =>
        ResultsDocumentSchema.parse(JSON.parse(await readFile(join(directory, 'results.json'), 'utf8'))),
      ),
    )
  }, SPAWN_TIMEOUT_MS)

  test('both pass, tool contract included', () => {
    expect(part.runDirectories).toHaveLength(1)
    expect(part.printedAbout(part.runDirectories[0] ?? '')).toContain(
      '[responses] Completed 2/2 valid examples; 2 passed; 0 failed; 0 infrastructure failures.',
    )
    expect(part.tests.map((test) => test.status)).toEqual(['passed', 'passed'])
    const rows = documents.flatMap((document) => document.results)
    expect(rows.map((row) => [row.scenario_id, row.status]).sort()).toEqual([
      ['refusal_returned', 'passed'],
      ['refusal_thrown', 'passed'],
    ])
    for (const row of rows) {
      const contract = row.assessment?.checks.find((check) => check.id === 'tool_contract')
      expect(contract, row.scenario_id).toMatchObject({ status: 'passed', required: true })
      // The expected refusal is the expected call in the accuracy too, not only in the contract.
      expect(row.metrics.task, row.scenario_id).toMatchObject({
        tool_accuracy: 1,
        tool_calls: { actual: 1, expected: 1 },
      })
    }
  })

  test('a misspelled expected tool fails its spec file when collected, naming file, scenario and path', () => {
    expect(part.run.code, part.run.output).toBe(1)
    const typo = part.files.get('typo.spec.ts')
    expect(typo?.status).toBe('failed')
    expect(typo?.message).toContain('refusal/typo.spec.ts: 1 problem with the assistant under test')
    expect(typo?.message).toContain(
      'scenario refusal_typo: expected.tools.required[0].name is "cancel_ordr", which assistant "orders-throwing" does not define; its tools: cancel_order',
    )
    const rows = documents.flatMap((document) => document.results)
    expect(rows.map((row) => row.scenario_id)).not.toContain('refusal_typo')
  })

  test('the thrown refusal is a failed execution, the returned one a completed execution', () => {
    const rows = documents.flatMap((document) => document.results)
    const tools = (id: string) =>
      (rows.find((row) => row.scenario_id === id)?.observability as { tools?: Record<string, unknown> })
        ?.tools
    expect(tools('refusal_thrown')).toMatchObject({ failed_count: 1 })
    expect(tools('refusal_returned')).toMatchObject({ failed_count: 0 })
  })
})
