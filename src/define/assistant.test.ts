import { describe, expect, test } from 'vitest'
import { defineAssistant, type ToolDefinitionInput } from './assistant.ts'

const counter: ToolDefinitionInput = {
  name: 'add',
  description: 'Add to the counter.',
  parameters: { type: 'object', properties: { by: { type: 'integer' } }, required: ['by'] },
  execute(args, { state }) {
    if (typeof args.by !== 'number' || args.by < 0) throw new Error('by must be a positive number')
    state.count = Number(state.count ?? 0) + args.by
    state.touched = true
    return { ok: true, count: state.count }
  },
}

const base = {
  name: 'counter',
  instructions: 'Count.',
  backendInstructions: 'Use the tool.',
  tools: [counter],
}

describe('defineAssistant', () => {
  test('tools run over the scenario’s own copy of the state; the caller’s copy never changes', async () => {
    const app = defineAssistant(base)
    const initialState = { count: 1 }
    const executor = app.createExecutor({ initialState })
    expect(await executor.execute('add', { by: 2 }, 'call_1')).toEqual({ ok: true, count: 3 })
    expect(executor.snapshot()).toEqual({ count: 3, touched: true })
    expect(initialState).toEqual({ count: 1 })
    expect(executor.executions).toEqual([
      {
        call_id: 'call_1',
        name: 'add',
        arguments: { by: 2 },
        status: 'completed',
        output: { ok: true, count: 3 },
      },
    ])
  })

  test('a refused call changes nothing and tells the model why', async () => {
    const executor = defineAssistant(base).createExecutor({ initialState: { count: 1 } })
    await expect(executor.execute('add', { by: -1 })).rejects.toThrow('by must be a positive number')
    expect(executor.snapshot()).toEqual({ count: 1 })
    await expect(executor.execute('subtract', {})).rejects.toThrow('unknown tool subtract')
    expect(executor.executions).toEqual([])
  })

  test('private facts never reach what the assistant may see', () => {
    const app = defineAssistant({
      ...base,
      facts: { hours: '9-5', margin: 'secret' },
      privateFacts: ['margin'],
    })
    expect(app.publicFacts()).toEqual({ hours: '9-5' })
    expect(app.publicFacts({ hours: '10-6', margin: 'other' })).toEqual({ hours: '10-6' })
  })

  test('offline rules: the first matching rule decides the call, its answer speaks after the tool', () => {
    const app = defineAssistant({
      ...base,
      offline: {
        rules: [
          {
            when: /add (\d+)/,
            call: { name: 'add', arguments: (text) => ({ by: Number(/(\d+)/.exec(text)?.[1]) }) },
            answer: (output) => `Now ${String(output.count)}.`,
          },
          { when: 'hello', say: 'Hi there.' },
        ],
        fallback: 'Pardon?',
      },
    })
    const behaviour = app.offlineBehaviour?.({ conversationContext: '', initialState: {} })
    expect(behaviour?.inferToolCall('please add 4')).toEqual({ name: 'add', arguments: { by: 4 } })
    expect(behaviour?.finalAnswer({ ok: true, count: 5 })).toBe('Now 5.')
    expect(behaviour?.inferToolCall('HELLO')).toBeNull()
    expect(behaviour?.directAnswer('HELLO')).toBe('Hi there.')
    expect(behaviour?.directAnswer('what?')).toBe('Pardon?')
  })

  test('without offline rules there is no offline behaviour (an offline run says so)', () => {
    expect(defineAssistant(base).offlineBehaviour).toBeUndefined()
  })

  test('a broken definition is refused naming the field', () => {
    expect(() => defineAssistant({ ...base, instructions: ' ' })).toThrow(
      'defineAssistant: instructions must not be empty',
    )
    expect(() => defineAssistant({ ...base, tools: [counter, counter] })).toThrow(
      'tool "add" is defined twice',
    )
    expect(() =>
      defineAssistant({ ...base, tools: [{ ...counter, parameters: { type: 'array' } as never }] }),
    ).toThrow(/tools\[0\]\.parameters/)
  })
})
