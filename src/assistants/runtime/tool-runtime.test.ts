import { describe, expect, test } from 'vitest'
import type { JsonObject } from '../offline-behaviour.ts'
import { isJsonObject } from './json.ts'
import type { FunctionToolDefinition } from './tool-definitions.ts'
import { ToolArgumentError, type ToolExecutionRecord, type ToolExecutor } from './tool-executor.ts'
import { ToolExecutionError, ToolRuntime } from './tool-runtime.ts'

/** A minimal executor: `echo` returns its arguments, `deny` always refuses, `crash` has a bug. */
class EchoExecutor implements ToolExecutor {
  readonly definitions: FunctionToolDefinition[] = [
    {
      type: 'function',
      name: 'echo',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' }, note: { type: 'string' } },
        required: ['text'],
      },
    },
  ]
  readonly received: unknown[] = []
  readonly executions: ToolExecutionRecord[] = []

  execute(name: string, args: unknown, callId: string | null = null): JsonObject {
    this.received.push(args)
    if (name === 'crash') throw new TypeError('undefined is not a function')
    if (name !== 'echo') throw new ToolArgumentError(`no tool named ${name}`)
    if (!isJsonObject(args)) throw new ToolArgumentError('arguments must be an object')
    const output = { ok: true, echoed: args }
    this.executions.push({ call_id: callId, name, arguments: args, status: 'completed', output })
    return output
  }

  snapshot(): JsonObject {
    return { calls: this.received.length }
  }
}

describe('ToolRuntime', () => {
  test('runs on a later tick, never inside the caller', async () => {
    const executor = new EchoExecutor()
    const runtime = new ToolRuntime(executor)
    const pending = runtime.run({ callId: 'c1', name: 'echo', arguments: '{"text":"hi"}' })
    expect(executor.received).toHaveLength(0)
    expect(runtime.pending).toBe(1)
    const result = await pending
    expect(executor.received).toEqual([{ text: 'hi' }])
    expect(runtime.pending).toBe(0)
    expect(result.record).toEqual({
      call_id: 'c1',
      name: 'echo',
      arguments: { text: 'hi' },
      status: 'completed',
      output: { ok: true, echoed: { text: 'hi' } },
    })
    expect(JSON.parse(result.outputJson)).toEqual({ ok: true, echoed: { text: 'hi' } })
  })

  test('accepts already-parsed arguments and copies them at acceptance', async () => {
    const executor = new EchoExecutor()
    const runtime = new ToolRuntime(executor)
    const args = { text: 'before' }
    const pending = runtime.run({ callId: 'c1', name: 'echo', arguments: args })
    args.text = 'after'
    expect((await pending).record.arguments).toEqual({ text: 'before' })
  })

  test('arguments that are not JSON become a failed record and never reach the executor', async () => {
    const executor = new EchoExecutor()
    const runtime = new ToolRuntime(executor)
    const result = await runtime.run({ callId: 'c1', name: 'echo', arguments: '{"text":' })
    expect(executor.received).toHaveLength(0)
    expect(result.record.status).toBe('failed')
    expect(result.record.arguments).toBe('{"text":')
    expect(result.record.output.ok).toBe(false)
    expect(String(result.record.output.error)).toMatch(/^Tool arguments are not valid JSON/)
    expect(JSON.parse(result.outputJson)).toEqual(result.record.output)
  })

  test('explicitly null optional arguments are dropped; null required ones are kept', async () => {
    const executor = new EchoExecutor()
    const runtime = new ToolRuntime(executor)
    await runtime.run({ callId: 'c1', name: 'echo', arguments: '{"text":"hi","note":null}' })
    await runtime.run({ callId: 'c2', name: 'echo', arguments: '{"text":null,"note":"n"}' })
    expect(executor.received).toEqual([{ text: 'hi' }, { text: null, note: 'n' }])
  })

  test('a call_id delivered twice runs once and both deliveries get the first result', async () => {
    const executor = new EchoExecutor()
    const runtime = new ToolRuntime(executor)
    const first = runtime.run({ callId: 'dup', name: 'echo', arguments: '{"text":"one"}' })
    const concurrent = runtime.run({ callId: 'dup', name: 'echo', arguments: '{"text":"two"}' })
    const firstResult = await first
    const late = await runtime.run({ callId: 'dup', name: 'echo', arguments: '{"text":"three"}' })
    expect(await concurrent).toBe(firstResult)
    expect(late).toBe(firstResult)
    expect(executor.received).toEqual([{ text: 'one' }])
    expect(runtime.executions()).toHaveLength(1)
  })

  test('a refused call becomes a failed record returned to the model, in the ordered log', async () => {
    const executor = new EchoExecutor()
    const runtime = new ToolRuntime(executor)
    await runtime.run({ callId: 'c1', name: 'echo', arguments: '{"text":"a"}' })
    const refused = await runtime.run({ callId: 'c2', name: 'launch', arguments: '{"x":1}' })
    expect(refused.record).toEqual({
      call_id: 'c2',
      name: 'launch',
      arguments: { x: 1 },
      status: 'failed',
      output: { ok: false, error: 'no tool named launch' },
    })
    expect(refused.outputJson).toBe('{"ok":false,"error":"no tool named launch"}')
    expect(runtime.executions().map((record) => [record.call_id, record.status])).toEqual([
      ['c1', 'completed'],
      ['c2', 'failed'],
    ])
    expect(runtime.executionCount()).toBe(2)
    expect(executor.executions).toHaveLength(1)
  })

  test('an executor bug rejects with an error naming the tool and call, not a failed record', async () => {
    const runtime = new ToolRuntime(new EchoExecutor())
    const crash = runtime.run({ callId: 'c9', name: 'crash', arguments: '{}' })
    await expect(crash).rejects.toBeInstanceOf(ToolExecutionError)
    await expect(crash).rejects.toThrow(/crash \(call_id c9\).*undefined is not a function/)
    expect(runtime.executions()).toEqual([])
    expect(runtime.executionCount()).toBe(0)
    expect(runtime.pending).toBe(0)
  })

  test('the log handed out is a copy, and settled() waits for everything accepted', async () => {
    const runtime = new ToolRuntime(new EchoExecutor())
    runtime.run({ callId: 'a', name: 'echo', arguments: '{"text":"1"}' })
    runtime.run({ callId: 'b', name: 'crash', arguments: '{}' }).catch(() => {})
    runtime.run({ callId: 'c', name: 'echo', arguments: '{"text":"3"}' })
    await runtime.settled()
    expect(runtime.pending).toBe(0)
    const log = runtime.executions()
    expect(log.map((record) => record.call_id)).toEqual(['a', 'c'])
    log.length = 0
    ;(runtime.executions()[0]?.output as JsonObject).ok = false
    expect(runtime.executions()).toHaveLength(2)
    expect(runtime.executions()[0]?.output.ok).toBe(true)
    expect(runtime.snapshot()).toEqual({ calls: 3 })
    expect(runtime.definitions.map((tool) => tool.name)).toEqual(['echo'])
  })
})
