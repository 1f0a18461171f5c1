// defineScenario's input types, checked by tsc (this file is part of `npm run typecheck`): every field an author
// writes is typed, so a typo is a type error where it is written, not a validation error at collection. Each
// `@ts-expect-error` fails the typecheck if its line stops being an error; the tests check that the contract
// refuses the same mistakes at run time too (a JavaScript spec file has no tsc).
import { describe, expect, expectTypeOf, test } from 'vitest'
import type { z } from 'zod'
import { type ExpectedToolCallInput, ExpectedToolCallSchema } from '../scenarios/expected.ts'
import { DatasetValidationError } from '../scenarios/index.ts'
import { defineScenario, inlineDataset, type ScenarioDefinition } from './scenario.ts'

const base = {
  id: 'typed',
  title: 'Typed',
  interaction: 'single_turn',
  input: { text: 'Hello' },
  expected: { answer: 'Hi' },
} satisfies ScenarioDefinition

describe('defineScenario input types', () => {
  test('a fully written scenario type-checks and validates', () => {
    const scenario = defineScenario({
      ...base,
      tags: ['smoke'],
      input: {
        text: 'Cancel order 5.',
        recordings: [{ id: 'r1', path: 'r1.wav', condition: 'noisy', metadata: { speaker: 'a' } }],
        context: { summary: '', history: [{ role: 'user', text: 'Hi' }] },
      },
      application: { initial_state: { orders: [{ id: 5, open: true }] } },
      expected: {
        answer: 'Order 5 is cancelled.',
        criteria: ['Confirms the order number.'],
        tools: {
          required: [{ name: 'cancel_order', arguments: { id: 5 }, status: 'completed' }],
          prohibited: [{ name: 'refund', status: 'any' }],
        },
        state: { orders: [{ id: 5, open: false }] },
      },
    })
    expect(inlineDataset([scenario], '/spec.ts')[0]?.expected.tools.required[0]?.name).toBe('cancel_order')
  })

  test('the documented expected tool call is exactly what the contract parses', () => {
    expectTypeOf<ExpectedToolCallInput>().toEqualTypeOf<z.input<typeof ExpectedToolCallSchema>>()
    expect(ExpectedToolCallSchema.parse({ name: 'x' } satisfies ExpectedToolCallInput).status).toBe(
      'completed',
    )
  })

  test('a misspelled expected tool field is a type error and a validation error', () => {
    const wrong = defineScenario({
      ...base,
      expected: {
        answer: 'Hi',
        // @ts-expect-error `nam` is not a field of an expected tool call
        tools: { required: [{ nam: 'x' }] },
      },
    })
    expect(() => inlineDataset([wrong], '/spec.ts')).toThrow(DatasetValidationError)
  })

  test('the other fields people write most are typed too', () => {
    defineScenario({
      ...base,
      // @ts-expect-error tags are strings
      tags: [1],
    })
    defineScenario({
      ...base,
      // @ts-expect-error criteria are strings
      expected: { answer: 'Hi', criteria: [{ text: 'x' }] },
    })
    defineScenario({
      ...base,
      // @ts-expect-error an expected state is a JSON object, not a list
      expected: { answer: 'Hi', state: [] },
    })
    defineScenario({
      ...base,
      // @ts-expect-error the initial state holds JSON values only (a function cannot be compared)
      application: { initial_state: { now: () => 1 } },
    })
    defineScenario({
      ...base,
      // @ts-expect-error a recording needs its path
      input: { text: 'Hi', recordings: [{ id: 'r1' }] },
    })
    defineScenario({
      ...base,
      // @ts-expect-error history roles are user or assistant
      input: { text: 'Hi', context: { history: [{ role: 'caller', text: 'Hi' }] } },
    })
    defineScenario({
      ...base,
      interaction: 'multi_turn',
      simulation_parameters: {
        agenda: [
          // @ts-expect-error an agenda item has a commitment, not a `commit`
          { id: 'a', commit: 'x', trigger_condition: 't', completion_condition: 'c', action: 'answer' },
        ],
      },
    })
    expect(true).toBe(true)
  })
})
