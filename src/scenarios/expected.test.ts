import { describe, expect, it } from 'vitest'
import { ExpectedOutcomeSchema, SopStepSchema } from './expected.ts'
import { multiTurnRaw, setPath, singleTurnRaw } from './fixtures/builders.ts'
import { pathsAndMessages, violationsOf } from './fixtures/violations-of.ts'

const only = (scenario: Record<string, unknown>) => pathsAndMessages(violationsOf([scenario]))

function withProcedure(steps: unknown[]) {
  return setPath(multiTurnRaw(), 'expected.procedure', { id: 'booking_sop', steps })
}

describe('expected outcome', () => {
  it('fills the documented defaults', () => {
    const expected = ExpectedOutcomeSchema.parse({
      answer: 'x',
      tools: { required: [{ name: 'check_availability' }] },
    })
    expect(expected).toEqual({
      answer: 'x',
      criteria: [],
      tools: {
        required: [{ name: 'check_availability', arguments: {}, status: 'completed' }],
        prohibited: [],
      },
      golden_path: { turns: 0, delegations: null, steps: [] },
      diagnostic_terms: [],
      delegation: 'optional',
      state: {},
      procedure: null,
    })
  })

  it('fills the procedure step defaults', () => {
    expect(SopStepSchema.parse({ id: 'ask', kind: 'clarification' })).toEqual({
      id: 'ask',
      kind: 'clarification',
      tool: null,
      arguments: {},
      after: [],
      required: true,
      critical: false,
    })
  })

  it('counts one turn per golden-path step when turns are omitted, and keeps explicit turns', () => {
    expect(
      ExpectedOutcomeSchema.parse({ answer: 'x', golden_path: { steps: ['a', 'b', 'c'] } }).golden_path.turns,
    ).toBe(3)
    expect(
      ExpectedOutcomeSchema.parse({ answer: 'x', golden_path: { turns: 9, steps: ['a'] } }).golden_path.turns,
    ).toBe(9)
  })

  it('accepts tool status "any", "completed" and "failed" and refuses other statuses', () => {
    for (const status of ['any', 'completed', 'failed']) {
      const valid = setPath(singleTurnRaw(), 'expected.tools.prohibited', [
        { name: 'cancel_reservation', status },
      ])
      expect(only(valid)).toEqual([])
    }
    const bad = setPath(singleTurnRaw(), 'expected.tools.prohibited', [
      { name: 'cancel_reservation', status: 'done' },
    ])
    expect(only(bad)).toEqual([
      'scenarios[0].expected.tools.prohibited[0].status: must be one of "any", "completed", "failed", got "done"',
    ])
  })
})

describe('expected outcome bounds', () => {
  it('requires tool names and non-negative whole delegation counts', () => {
    expect(only(setPath(singleTurnRaw(), 'expected.tools.prohibited', [{ name: '' }]))).toEqual([
      'scenarios[0].expected.tools.prohibited[0].name: must not be empty',
    ])
    expect(only(setPath(singleTurnRaw(), 'expected.golden_path.delegations', -1))).toEqual([
      'scenarios[0].expected.golden_path.delegations: must be >= 0, got -1',
    ])
    expect(only(setPath(singleTurnRaw(), 'expected.golden_path.delegations', 0.5))[0]).toContain('integer')
    expect(only(setPath(singleTurnRaw(), 'expected.state', ['unchanged']))).toEqual([
      'scenarios[0].expected.state: must be a JSON object, got a list',
    ])
  })
})

describe('procedure (SOP) rules', () => {
  const tool = { id: 'book', kind: 'tool', tool: 'create_reservation' }

  it('accepts a well-formed procedure', () => {
    const steps = [
      { id: 'ask_name', kind: 'clarification', arguments: { field: 'guest_name' } },
      { ...tool, after: ['ask_name'] },
    ]
    expect(only(withProcedure(steps))).toEqual([])
  })

  it('requires step ids to be unique', () => {
    expect(only(withProcedure([tool, { ...tool }]))).toEqual([
      'scenarios[0].expected.procedure.steps[1].id: duplicate procedure step id "book": step ids must be unique',
    ])
  })

  it('lets `after` reference only earlier steps', () => {
    const steps = [
      { ...tool, after: ['confirm'] },
      { id: 'confirm', kind: 'grounded_confirmation' },
    ]
    expect(only(withProcedure(steps))).toEqual([
      'scenarios[0].expected.procedure.steps[0].after[0]: procedure step "book" may only come after earlier steps; "confirm" is not an earlier step id',
    ])
    expect(only(withProcedure([{ ...tool, after: ['book'] }]))).toHaveLength(1)
  })

  it('requires critical steps to be required', () => {
    expect(only(withProcedure([{ ...tool, critical: true, required: false }]))).toEqual([
      'scenarios[0].expected.procedure.steps[0].critical: critical procedure steps must be required',
    ])
    expect(only(withProcedure([{ ...tool, critical: true }]))).toEqual([])
  })

  it('requires a tool name on tool steps', () => {
    expect(only(withProcedure([{ id: 'book', kind: 'tool' }]))).toEqual([
      'scenarios[0].expected.procedure.steps[0].tool: procedure steps of kind "tool" must name a tool',
    ])
  })

  it('requires at least one step and a known kind', () => {
    expect(only(withProcedure([]))).toEqual([
      'scenarios[0].expected.procedure.steps: must have at least 1 item',
    ])
    expect(only(withProcedure([{ id: 'x', kind: 'guess' }]))[0]).toContain('steps[0].kind: must be one of')
  })
})
