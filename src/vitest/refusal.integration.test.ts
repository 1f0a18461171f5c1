// A refusal scenario written both ways, run offline in a child Vitest: a tool that throws to refuse (a failed
// execution, expected with status 'failed') and a tool that returns its refusal (a completed execution, the
// default status). Both pass; the thrown one is recorded as the failed execution it is. A third spec expects a
// tool its assistant does not define: it fails when collected, by name, and nothing of it runs.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { type ChildRun, runDirectoriesIn, runVitest, SPAWN_TIMEOUT_MS, scratch } from './child-vitest.ts'

describe('a refusal written both ways', () => {
  let run: ChildRun = { code: null, output: '' }
  let documents: ResultsDocument[] = []

  beforeAll(async () => {
    const { dir, env } = await scratch()
    run = await runVitest(['run', '--config', 'src/vitest/fixtures/refusal/vitest.config.ts'], {
      ...env,
      OPENAI_ASSISTANT_MODE: 'responses',
    })
    const resultsDir = join(dir, 'results')
    documents = await Promise.all(
      (await runDirectoriesIn(resultsDir)).map(async (name) =>
        ResultsDocumentSchema.parse(
          JSON.parse(await readFile(join(resultsDir, name, 'results.json'), 'utf8')),
        ),
      ),
    )
  }, SPAWN_TIMEOUT_MS)

  test('both pass, tool contract included', () => {
    expect(run.output).toContain('2 passed, 0 failed')
    const rows = documents.flatMap((document) => document.results)
    expect(rows.map((row) => [row.scenario_id, row.status]).sort()).toEqual([
      ['refusal_returned', 'passed'],
      ['refusal_thrown', 'passed'],
    ])
    for (const row of rows) {
      const contract = row.assessment?.checks.find((check) => check.id === 'tool_contract')
      expect(contract, row.scenario_id).toMatchObject({ status: 'passed', required: true })
    }
  })

  test('a misspelled expected tool fails its spec file when collected, naming file, scenario and path', () => {
    expect(run.code, run.output).toBe(1)
    expect(run.output).toContain('refusal/typo.spec.ts: 1 problem with the assistant under test')
    expect(run.output).toContain(
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
