import { describe, expect, test } from 'vitest'
import { normalizeLiveTools } from './live-tools.ts'
import type { FunctionToolDefinition } from './tool-definitions.ts'

const definition = (): FunctionToolDefinition => ({
  type: 'function',
  name: 'book',
  description: 'Book a table.',
  strict: true,
  parameters: {
    type: 'object',
    properties: {
      date: { type: 'string' },
      seating: { type: 'string', description: 'area' },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['date'],
  },
})

describe('normalizeLiveTools', () => {
  test('optional properties also admit null; required ones are unchanged', () => {
    const [tool] = normalizeLiveTools([definition()])
    expect(tool?.parameters?.properties).toEqual({
      date: { type: 'string' },
      seating: { anyOf: [{ type: 'string', description: 'area' }, { type: 'null' }] },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    })
    expect(tool?.parameters?.required).toEqual(['date'])
  })

  test('closes the schema, drops strict and keeps name, type and description', () => {
    const [tool] = normalizeLiveTools([definition()])
    expect(tool?.parameters?.additionalProperties).toBe(false)
    expect(tool).not.toHaveProperty('strict')
    expect(tool).toMatchObject({ type: 'function', name: 'book', description: 'Book a table.' })
  })

  test('does not modify the definitions it was given', () => {
    const input = definition()
    const before = structuredClone(input)
    const [tool] = normalizeLiveTools([input])
    ;(tool?.parameters?.properties as Record<string, unknown>).date = 'changed'
    expect(input).toEqual(before)
  })

  test('the evaluator-side `mutates` declaration never reaches GPT-Live', () => {
    const [tool] = normalizeLiveTools([{ ...definition(), mutates: true }])
    expect(tool).not.toHaveProperty('mutates')
    expect(JSON.stringify(tool)).not.toContain('mutates')
  })
})
