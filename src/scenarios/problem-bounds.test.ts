// What a hostile dataset costs to validate is bounded (issue 23, point 7): a scenario with a huge number of
// unknown fields is one problem, an object's unknown fields are listed up to a limit and then counted, and an id
// of any length is echoed as a short quoted prefix, never whole.

import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { captureIO } from '../cli/capture-io.ts'
import { main } from '../cli/main.ts'
import { datasetText, setPath, singleTurnRaw } from './fixtures/builders.ts'
import { MAX_SCENARIO_FIELDS, TOO_MANY_FIELDS_MESSAGE } from './limits.ts'
import { validateDocument } from './validate-document.ts'
import { MAX_LISTED_UNKNOWN_KEYS } from './violations.ts'

function withUnknownKeys(count: number): Record<string, unknown> {
  const scenario: Record<string, unknown> = { ...(singleTurnRaw('wide') as Record<string, unknown>) }
  for (let index = 0; index < count; index++) scenario[`unknown_${index}`] = 0
  return scenario
}

describe('bounded problem collection', () => {
  test('a scenario with more fields than the limit is one problem, its fields not checked one by one', () => {
    const { scenarios, violations } = validateDocument(
      {
        schema_version: '1.0',
        scenarios: [withUnknownKeys(MAX_SCENARIO_FIELDS + 50_000), singleTurnRaw('fine')],
      },
      'wide.json',
    )
    expect(violations).toEqual([
      { file: 'wide.json', scenarioId: 'wide', path: 'scenarios[0]', message: TOO_MANY_FIELDS_MESSAGE },
    ])
    expect(scenarios.map((scenario) => scenario.id)).toEqual(['fine'])
  })

  test("an object's unknown fields are listed up to the limit, then counted in one more problem", () => {
    const { violations } = validateDocument(
      { schema_version: '1.0', scenarios: [withUnknownKeys(500)] },
      'f.json',
    )
    expect(violations).toHaveLength(MAX_LISTED_UNKNOWN_KEYS + 1)
    expect(violations[0]?.message).toContain('unknown field "unknown_0"')
    expect(violations.at(-1)).toMatchObject({
      path: 'scenarios[0]',
      message: `and ${500 - MAX_LISTED_UNKNOWN_KEYS} more unknown fields (not listed one by one)`,
    })
  })
})

describe('validate echoes no value whole', () => {
  test('a megabyte-long id is shown as a quoted prefix with its length in every line', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'live-evals-long-id-'))
    try {
      const id = `x${'y'.repeat(1_000_000)}`
      const file = path.join(folder, 'long-id.json')
      await writeFile(file, datasetText([setPath(setPath(singleTurnRaw(id), 'surprise', 1), 'oops', 2)]))
      const io = captureIO()
      expect(await main(['validate', file], io)).toBe(1)
      const lines = io
        .stderr()
        .split('\n')
        .filter((line) => line.includes('[scenario '))
      expect(lines.length).toBeGreaterThanOrEqual(2)
      for (const line of lines) {
        expect(line).toContain('(1000001 characters)')
        expect(line.length).toBeLessThan(1000)
      }
      expect(io.stderr().length).toBeLessThan(10_000)
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })
})
