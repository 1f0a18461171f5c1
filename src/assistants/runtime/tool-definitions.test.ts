import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parseToolDefinitions, readToolDefinitions, ToolDefinitionsError } from './tool-definitions.ts'

const tool = (name: string) => ({
  type: 'function',
  name,
  description: 'd',
  parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
})

describe('tool definitions check', () => {
  test('accepts a non-empty list of function tools with unique names', () => {
    expect(parseToolDefinitions([tool('a'), tool('b')], 'x.json').map((item) => item.name)).toEqual([
      'a',
      'b',
    ])
  })

  test.each([
    ['an empty list', [], /at least one function tool/],
    ['a non-list', { tools: [] }, /\(top level\)/],
    ['a non-function tool', [{ ...tool('a'), type: 'web_search' }], /\[0\]\.\[type\]/],
    ['a blank name', [tool('  ')], /tool name must be non-empty/],
    ['duplicate names', [tool('a'), tool('b'), tool('a')], /\[2\]\.\[name\]: duplicate tool name "a"/],
    ['an unknown key', [{ ...tool('a'), extra: 1 }], /\[0\]/],
  ])('refuses %s and names the source', (_label, value, message) => {
    expect(() => parseToolDefinitions(value, 'tools/definitions.json')).toThrow(ToolDefinitionsError)
    expect(() => parseToolDefinitions(value, 'tools/definitions.json')).toThrow(message)
    expect(() => parseToolDefinitions(value, 'tools/definitions.json')).toThrow(/tools\/definitions\.json/)
  })

  test('reads a file, and names the file when it is missing or not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'defs-'))
    const good = join(dir, 'good.json')
    writeFileSync(good, JSON.stringify([tool('a')]))
    expect(readToolDefinitions(good)).toHaveLength(1)
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '[{')
    expect(() => readToolDefinitions(bad)).toThrow(new RegExp(`${bad}.*not valid JSON`))
    expect(() => readToolDefinitions(join(dir, 'missing.json'))).toThrow(/Cannot read tool definitions file/)
  })
})
