import { describe, expect, test } from 'vitest'
import { OfflineRuleError } from '../assistants/offline-rule-error.ts'
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

  test('offline rules written as functions get the call so far; one-argument rules keep working', () => {
    const seen: unknown[] = []
    const app = defineAssistant({
      ...base,
      offline: {
        rules: [
          {
            // A rule that needs an earlier turn: "yes" only adds when the assistant just offered it.
            when: (text, earlier) => text === 'yes' && earlier.at(-1)?.text === 'Add 2?',
            call: {
              name: 'add',
              arguments: (_text, earlier) => {
                seen.push(earlier)
                return { by: 2 }
              },
            },
          },
          {
            when: (text) => text.startsWith('add'),
            say: (_text, earlier) => `turns so far: ${earlier.length}`,
          },
        ],
      },
    })
    const behaviour = app.offlineBehaviour?.({ conversationContext: '', initialState: {} })
    const earlier = [
      { role: 'user' as const, text: 'add some' },
      { role: 'assistant' as const, text: 'Add 2?' },
    ]
    expect(behaviour?.inferToolCall('yes')).toBeNull()
    expect(behaviour?.inferToolCall('yes', earlier)).toEqual({ name: 'add', arguments: { by: 2 } })
    expect(seen).toEqual([earlier])
    expect(behaviour?.directAnswer('add some')).toBe('turns so far: 0')
    expect(behaviour?.directAnswer('add more', earlier)).toBe('turns so far: 2')
  })

  test('a rule callback that throws is named: assistant, rule, callback, what it was given, where it threw', () => {
    const broken = (): never => {
      throw new RangeError('my rule broke')
    }
    const app = defineAssistant({
      ...base,
      offline: {
        rules: [
          { when: 'count', say: broken },
          { when: broken, say: 'never' },
          { when: /add/, call: { name: 'add', arguments: broken }, answer: (output) => String(output.count) },
          { when: /more/, call: { name: 'add', arguments: { by: 1 } }, answer: broken },
        ],
      },
    })
    const behaviour = app.offlineBehaviour?.({ conversationContext: '', initialState: {} })
    const thrown = (run: () => unknown): OfflineRuleError => {
      try {
        run()
      } catch (error) {
        expect(error).toBeInstanceOf(OfflineRuleError)
        return error as OfflineRuleError
      }
      throw new Error('the rule did not throw')
    }
    const said = thrown(() => behaviour?.directAnswer('count me in'))
    expect(said.message).toMatch(
      /^assistant "counter", offline\.rules\[0\] \(when "count"\): say\(callerText, earlier\) threw RangeError: my rule broke \(at .*assistant\.test\.ts:\d+:\d+\)\), given "count me in"\. This is a bug in your offline rule, not a failure of live-evals/,
    )
    expect(said.cause).toBeInstanceOf(RangeError)
    expect(thrown(() => behaviour?.directAnswer('hello')).message).toContain(
      'offline.rules[1] (when a function): when(callerText, earlier) threw',
    )
    expect(thrown(() => behaviour?.inferToolCall('add two')).message).toContain(
      'offline.rules[2] (when /add/): call.arguments(callerText, earlier) threw',
    )
    expect(behaviour?.inferToolCall('more')).toEqual({ name: 'add', arguments: { by: 1 } })
    const answered = thrown(() => behaviour?.finalAnswer({ ok: false, error: 'no' }))
    expect(answered.message).toContain('offline.rules[3] (when /more/): answer(output) threw')
    expect(answered.message).toContain('given {"ok":false,"error":"no"}')
    expect(answered.message).toContain('check output.ok before reading it')
  })

  test('without offline rules there is no offline behaviour (an offline run says so)', () => {
    expect(defineAssistant(base).offlineBehaviour).toBeUndefined()
  })

  test('an agent that only talks has no tools: `tools: []` is accepted and serves none', () => {
    const talker = defineAssistant({
      ...base,
      tools: [],
      offline: { rules: [{ when: 'hi', say: 'Hello.' }] },
    })
    expect(talker.tools).toEqual([])
    const executor = talker.createExecutor({ initialState: { count: 0 } })
    expect(executor.definitions).toEqual([])
    expect(executor.snapshot()).toEqual({ count: 0 })
    expect(
      talker.offlineBehaviour?.({ conversationContext: '', initialState: {} }).directAnswer('hi there'),
    ).toBe('Hello.')
  })

  test('backendFailureAnswer: absent by default, your words or null (say nothing); blank is refused', () => {
    expect(defineAssistant(base).backendFailureAnswer).toBeUndefined()
    expect(
      defineAssistant({ ...base, backendFailureAnswer: 'The list is offline.' }).backendFailureAnswer,
    ).toBe('The list is offline.')
    expect(defineAssistant({ ...base, backendFailureAnswer: null }).backendFailureAnswer).toBeNull()
    expect(() => defineAssistant({ ...base, backendFailureAnswer: '  ' })).toThrow(
      'defineAssistant: backendFailureAnswer must not be empty (null says nothing)',
    )
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
