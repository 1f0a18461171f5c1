import { describe, expect, test } from 'vitest'
import type { FaultProfile, ToolFaultRule } from '../../config/fault-profiles.ts'
import { FAULT_PROFILES } from '../../config/fault-profiles.ts'
import type { JsonObject } from '../offline-behaviour.ts'
import { FaultInjector, wrongData } from './faults.ts'
import type { FunctionToolDefinition } from './tool-definitions.ts'
import type { ToolExecutionRecord, ToolExecutor } from './tool-executor.ts'
import { ToolRuntime } from './tool-runtime.ts'

/** A booking backend: `book` adds a booking to its state, `check` reads availability. */
class BookingExecutor implements ToolExecutor {
  readonly definitions: FunctionToolDefinition[] = [
    { type: 'function', name: 'book', parameters: { type: 'object', properties: {} }, mutates: true },
    { type: 'function', name: 'check', parameters: { type: 'object', properties: {} }, mutates: false },
  ]
  readonly executions: ToolExecutionRecord[] = []
  bookings = 0

  execute(name: string): JsonObject {
    if (name === 'book') {
      this.bookings += 1
      return { ok: true, reservation_id: `R${this.bookings}` }
    }
    return { ok: true, available: true, tables_left: 3 }
  }

  snapshot(): JsonObject {
    return { bookings: this.bookings }
  }
}

const always = (kind: ToolFaultRule['kind'], extra: object = {}): FaultProfile => ({
  name: `always-${kind}`,
  seed: 1,
  rules: [{ tools: ['*'], kind, rate: 1, ...extra }],
})

async function callUnder(profile: FaultProfile | null, name: string) {
  const executor = new BookingExecutor()
  const runtime = new ToolRuntime(executor, { faults: profile })
  const result = await runtime.run({ callId: 'c1', name, arguments: '{}' })
  return { executor, runtime, result }
}

describe('tool-plane fault injection', () => {
  test('timeout: the call fails as a timeout, the application is untouched, the record names the fault', async () => {
    const { executor, result, runtime } = await callUnder(always('timeout'), 'book')
    expect(result.record.status).toBe('failed')
    expect(result.record.output).toEqual({ ok: false, error: expect.stringMatching(/timed out/) })
    expect(result.record.fault).toEqual({ kind: 'timeout', profile: 'always-timeout', call_index: 0 })
    expect(executor.bookings).toBe(0)
    expect(runtime.executions()[0]?.fault?.kind).toBe('timeout')
  })

  test('error: the call fails as a backend error and nothing changes', async () => {
    const { executor, result } = await callUnder(always('error'), 'book')
    expect(result.record.status).toBe('failed')
    expect(result.record.output.error).toMatch(/internal server error/)
    expect(result.record.fault?.kind).toBe('error')
    expect(executor.bookings).toBe(0)
  })

  test('empty: the call "completes" with an empty answer and nothing changes', async () => {
    const { executor, result } = await callUnder(always('empty'), 'book')
    expect(result.record.status).toBe('completed')
    expect(result.record.output).toEqual({})
    expect(result.outputJson).toBe('{}')
    expect(result.record.fault?.kind).toBe('empty')
    expect(executor.bookings).toBe(0)
  })

  test('wrong_data: the real call runs, its answer is plausibly altered, the record names what changed', async () => {
    const { result } = await callUnder(always('wrong_data'), 'check')
    expect(result.record.status).toBe('completed')
    expect(result.record.output).toEqual({ ok: true, available: false, tables_left: 3 })
    expect(result.record.fault).toMatchObject({ kind: 'wrong_data', changed: ['available'] })
  })

  test('slow: the real call runs after the added delay and the record says by how much', async () => {
    const { executor, result } = await callUnder(always('slow', { delay_s: 0.01 }), 'book')
    expect(result.record.status).toBe('completed')
    expect(result.record.output).toEqual({ ok: true, reservation_id: 'R1' })
    expect(result.record.fault).toMatchObject({ kind: 'slow', delay_s: 0.01 })
    expect(executor.bookings).toBe(1)
  })

  test('without a profile nothing is injected and no record has a fault', async () => {
    const { result } = await callUnder(null, 'book')
    expect(result.record).not.toHaveProperty('fault')
    expect(result.record.output).toEqual({ ok: true, reservation_id: 'R1' })
  })

  test('what the model receives names no fault profile (evaluator-only)', async () => {
    for (const kind of ['timeout', 'error', 'empty', 'wrong_data'] as const) {
      const { result } = await callUnder(always(kind), 'check')
      expect(result.outputJson).not.toMatch(/fault|inject|always-|profile/i)
    }
  })

  test('the same seed gives the same faults; another seed gives others', () => {
    const sequence = (profile: FaultProfile) => {
      const injector = new FaultInjector(profile)
      return Array.from({ length: 40 }, (_, index) => {
        const tool = ['create_reservation', 'cancel_reservation', 'check_availability'][index % 3] ?? ''
        return injector.draw(tool)?.fault.kind ?? 'none'
      })
    }
    const flaky = FAULT_PROFILES['backend-flaky']
    const first = sequence(flaky)
    expect(sequence(flaky)).toEqual(first)
    expect(new Set(first)).toEqual(new Set(['none', 'timeout', 'error', 'empty', 'slow']))
    expect(sequence({ ...flaky, seed: 23 })).not.toEqual(first)
  })

  test('a rule at rate 0 never fires and one for other tools does not apply', () => {
    const injector = new FaultInjector({
      name: 'p',
      seed: 3,
      rules: [
        { tools: ['book'], kind: 'error', rate: 0 },
        { tools: ['other'], kind: 'error', rate: 1 },
      ],
    })
    expect(Array.from({ length: 20 }, () => injector.draw('book'))).toEqual(Array(20).fill(null))
  })

  test('wrong data leaves `ok` alone and reports nothing changed when there is nothing to alter', () => {
    expect(wrongData({ ok: true, note: 'x' })).toEqual({ output: { ok: true, note: 'x' }, changed: [] })
    expect(wrongData({ ok: true, slots: [{ time: '19:00', seats: 4 }] }).changed).toEqual(['slots.0.seats'])
  })

  test('mutates: the declaration wins, else the read-verb rule', () => {
    const runtime = new ToolRuntime(new BookingExecutor())
    expect(runtime.mutates('book')).toBe(true)
    expect(runtime.mutates('check')).toBe(false)
    expect(runtime.mutates('get_menu')).toBe(false)
    expect(runtime.mutates('send_sms')).toBe(true)
  })
})
