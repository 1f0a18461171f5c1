// The controller against a scripted GPT-Live peer over loopback, through the real LiveWS client: it lets the
// tests deliver what the offline server never sends (non-completed statuses, repeated call_ids, failures).
import { setImmediate as nextMacrotask } from 'node:timers/promises'
import { afterEach, describe, expect, test } from 'vitest'
import type { ReceivedLiveEvent } from '../../../live/events.ts'
import { LiveSession } from '../../../live/index.ts'
import type { ToolExecutor } from '../../runtime/tool-executor.ts'
import { ToolRuntime } from '../../runtime/tool-runtime.ts'
import { RestaurantTools } from '../tools/restaurant-tools.ts'
import { type LiveEventChannel, ResponsesDelegationController } from './controller.ts'
import { type ScriptedLivePeer, startScriptedLivePeer } from './scripted-live-peer.ts'

const DELEGATION = 'item_deleg_1'
const checkArgs = JSON.stringify({ date: '2026-08-12', time: '19:00', party_size: 2, seating: null })
const usage = {
  input_tokens: 40,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 8,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 48,
}

interface Harness {
  peer: ScriptedLivePeer
  session: LiveSession
  runtime: ToolRuntime
  controller: ResponsesDelegationController
}
const open: Harness[] = []

async function connect(executor?: ToolExecutor): Promise<Harness> {
  const peer = await startScriptedLivePeer()
  const session = new LiveSession({
    apiKey: 'peer-token',
    baseURL: peer.baseURL,
    allowInsecureLoopback: true,
  })
  const tools =
    executor ??
    new RestaurantTools({ initialState: { reservations: [], authorized_reservation_ids: ['R-001'] } })
  const runtime = new ToolRuntime(tools)
  const controller = new ResponsesDelegationController(session, runtime)
  const harness = { peer, session, runtime, controller }
  open.push(harness)
  await session.start({ model: 'gpt-live-1' })
  peer.push({
    type: 'session.delegation.created',
    offset_ms: 1200,
    delegation: { id: DELEGATION, type: 'delegation', target: 'responses', response_id: 'resp_1' },
  })
  return harness
}

afterEach(async () => {
  for (const { controller, session, peer } of open.splice(0)) {
    await controller.close()
    await session.close()
    await peer.close()
  }
})

const nested = (h: Harness, event: Record<string, unknown>) =>
  h.peer.push({ type: 'response.event', delegation_id: DELEGATION, event })
const created = (h: Harness, id: string) =>
  nested(h, { type: 'response.created', response: { id, status: 'in_progress', output: [] } })
const terminal = (h: Harness, id: string, type = 'response.completed', withUsage = true) =>
  nested(h, {
    type,
    response: { id, status: type.slice('response.'.length), output: [], ...(withUsage ? { usage } : {}) },
  })
const functionCall = (
  h: Harness,
  callId: string,
  status?: string,
  name = 'check_availability',
  args = checkArgs,
) =>
  nested(h, {
    type: 'response.output_item.done',
    output_index: 0,
    item: {
      id: `fc_${callId}`,
      type: 'function_call',
      call_id: callId,
      name,
      arguments: args,
      ...(status === undefined ? {} : { status }),
    },
  })

let markers = 0
/** Waits until the client processed everything pushed so far, and every tool it started has finished. */
async function settle(h: Harness): Promise<void> {
  markers += 1
  const seconds = markers
  h.peer.push({ type: 'session.usage.updated', usage: { seconds } })
  await h.session.waitForEvent((e) => e.type === 'session.usage.updated' && e.usage.seconds === seconds, {
    timeoutMs: 5_000,
  })
  await nextMacrotask()
  await h.runtime.settled()
  await nextMacrotask()
}

const sentTypes = (h: Harness) =>
  h.peer.received
    .map((frame) => frame.type)
    .filter((type) => type !== 'session.start' && type !== 'session.close')

describe('ResponsesDelegationController', () => {
  test('runs a completed call, and returns its output then one response.create only after response.completed', async () => {
    const h = await connect()
    created(h, 'resp_1')
    nested(h, {
      type: 'response.function_call_arguments.done',
      item_id: 'fc_call_1',
      output_index: 0,
      arguments: checkArgs,
    })
    functionCall(h, 'call_1', 'completed')
    await settle(h)
    expect(h.runtime.executions()).toHaveLength(1)
    // The tool has returned, but the response is not complete yet: nothing goes back.
    expect(sentTypes(h)).toEqual([])
    expect(h.controller.pending).toBe(1)
    expect(h.controller.delegationFinished(DELEGATION)).toBe(false)

    terminal(h, 'resp_1')
    await h.peer.receivedFrame((frame) => frame.type === 'response.create')
    await h.controller.wait()
    expect(sentTypes(h)).toEqual(['response.item.create', 'response.create'])
    // Responded, and the call it ran was published: done with that delegation, not with another.
    expect(h.controller.delegationFinished(DELEGATION)).toBe(true)
    expect(h.controller.delegationFinished('another_delegation')).toBe(false)
    const [execution] = h.runtime.executions()
    // The explicit null optional (seating) was dropped before execution.
    expect(execution).toMatchObject({ call_id: 'call_1', status: 'completed', arguments: { party_size: 2 } })
    expect(execution?.arguments).not.toHaveProperty('seating')
    expect(h.peer.received.find((frame) => frame.type === 'response.item.create')?.item).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: JSON.stringify(execution?.output),
    })
    const observation = h.controller.observation()
    expect(observation.delegations).toEqual([
      expect.objectContaining({ delegationId: DELEGATION, offsetMs: 1200, responseIds: ['resp_1'] }),
    ])
    expect(observation.backendUsage).toEqual([
      expect.objectContaining({ responseId: 'resp_1', terminal: 'response.completed', usage }),
    ])
    expect(observation.publications).toEqual([
      expect.objectContaining({ responseId: 'resp_1', callIds: ['call_1'], outcome: 'published' }),
    ])
    expect(observation.argumentsDoneEvents).toBe(1)
  })

  test.each([
    ['missing', undefined],
    ['in_progress', 'in_progress'],
    ['incomplete', 'incomplete'],
    ['cancelled', 'cancelled'],
    ['failed', 'failed'],
  ])('a function call whose status is %s runs nothing and sends nothing', async (_label, status) => {
    const h = await connect()
    created(h, 'resp_1')
    nested(h, {
      type: 'response.function_call_arguments.done',
      item_id: 'fc_call_1',
      output_index: 0,
      arguments: checkArgs,
    })
    functionCall(h, 'call_1', status)
    terminal(h, 'resp_1')
    await settle(h)
    expect(h.runtime.executions()).toEqual([])
    expect(sentTypes(h)).toEqual([])
    expect(h.controller.pending).toBe(0)
    expect(h.controller.observation().requestedCalls).toEqual([
      expect.objectContaining({
        callId: 'call_1',
        status: status ?? null,
        executed: false,
        skipped: 'status_not_completed',
      }),
    ])
  })

  test('the same call_id delivered twice runs once and is returned once', async () => {
    const h = await connect()
    created(h, 'resp_1')
    functionCall(h, 'call_1', 'completed')
    functionCall(h, 'call_1', 'completed')
    terminal(h, 'resp_1')
    await h.peer.receivedFrame((frame) => frame.type === 'response.create')
    await h.controller.wait()
    await settle(h)
    expect(h.runtime.executions()).toHaveLength(1)
    expect(sentTypes(h)).toEqual(['response.item.create', 'response.create'])
    expect(h.controller.observation().requestedCalls.map((call) => call.skipped)).toEqual([
      null,
      'duplicate_call_id',
    ])
  })

  test('every call of a response is returned before the single response.create', async () => {
    const h = await connect()
    created(h, 'resp_1')
    functionCall(h, 'call_1', 'completed')
    functionCall(
      h,
      'call_2',
      'completed',
      'check_availability',
      JSON.stringify({ date: '2026-08-13', time: '18:00', party_size: 3 }),
    )
    terminal(h, 'resp_1')
    await h.peer.receivedFrame((frame) => frame.type === 'response.create')
    await h.controller.wait()
    expect(sentTypes(h)).toEqual(['response.item.create', 'response.item.create', 'response.create'])
    const callIds = h.peer.received
      .filter((frame) => frame.type === 'response.item.create')
      .map((frame) => (frame.item as { call_id: string }).call_id)
    expect(callIds).toEqual(['call_1', 'call_2'])
  })

  test('a refused tool call becomes a failed execution and {ok: false, error} goes back to the model', async () => {
    const h = await connect()
    created(h, 'resp_1')
    functionCall(h, 'call_1', 'completed', 'cancel_reservation', JSON.stringify({ reservation_id: 'R-009' }))
    terminal(h, 'resp_1')
    await h.peer.receivedFrame((frame) => frame.type === 'response.create')
    const expected = { ok: false, error: 'Not authorized to cancel reservation R-009' }
    expect(h.runtime.executions()).toEqual([
      {
        call_id: 'call_1',
        name: 'cancel_reservation',
        arguments: { reservation_id: 'R-009' },
        status: 'failed',
        output: expected,
      },
    ])
    const item = h.peer.received.find((frame) => frame.type === 'response.item.create')?.item
    expect(item).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: JSON.stringify(expected),
    })
    expect(h.runtime.snapshot()).toEqual({ reservations: [], authorized_reservation_ids: ['R-001'] })
  })

  test('a response that fails is not continued, and its usage is still recorded (null when absent)', async () => {
    const h = await connect()
    created(h, 'resp_1')
    functionCall(h, 'call_1', 'completed')
    terminal(h, 'resp_1', 'response.failed', false)
    await settle(h)
    await h.controller.wait()
    expect(h.runtime.executions()).toHaveLength(1)
    expect(sentTypes(h)).toEqual([])
    const observation = h.controller.observation()
    expect(observation.publications).toEqual([expect.objectContaining({ outcome: 'response_not_completed' })])
    expect(observation.backendUsage).toEqual([
      expect.objectContaining({ responseId: 'resp_1', terminal: 'response.failed', usage: null }),
    ])
  })

  test('closing with a round still waiting for its response abandons it and reports the unfinished work', async () => {
    const h = await connect()
    created(h, 'resp_1')
    functionCall(h, 'call_1', 'completed')
    await settle(h)
    const waiting = h.controller.wait()
    await h.controller.close()
    await expect(waiting).rejects.toMatchObject({ kind: 'closed_with_pending_work' })
    expect(h.controller.observation().publications).toEqual([
      expect.objectContaining({ outcome: 'session_ended' }),
    ])
    // A call delivered after close runs nothing.
    functionCall(h, 'call_2', 'completed')
    terminal(h, 'resp_1')
    await nextMacrotask()
    expect(sentTypes(h)).toEqual([])
    expect(h.runtime.executions()).toHaveLength(1)
  })

  test('an executor crash is retained: wait() rejects with it and nothing is published', async () => {
    const definitions = new RestaurantTools().definitions
    const crashing: ToolExecutor = {
      definitions,
      executions: [],
      execute: () => {
        throw new Error('database unreachable')
      },
      snapshot: () => ({}),
    }
    const h = await connect(crashing)
    created(h, 'resp_1')
    functionCall(h, 'call_1', 'completed')
    terminal(h, 'resp_1')
    await settle(h)
    await expect(h.controller.wait()).rejects.toThrow(
      /response resp_1 failed: Tool check_availability .*database unreachable/,
    )
    await settle(h)
    expect(sentTypes(h)).toEqual([])
    // Retained: a later wait reports it too.
    await expect(h.controller.wait()).rejects.toThrow(/database unreachable/)
  })

  test('cancelling a wait does not cancel the round: it still publishes', async () => {
    const h = await connect()
    created(h, 'resp_1')
    functionCall(h, 'call_1', 'completed')
    await settle(h)
    const waiter = new AbortController()
    const cancelled = h.controller.wait({ signal: waiter.signal })
    waiter.abort(new Error('turn deadline'))
    await expect(cancelled).rejects.toThrow('turn deadline')
    expect(h.controller.pending).toBe(1)
    terminal(h, 'resp_1')
    await h.controller.wait()
    await h.peer.receivedFrame((frame) => frame.type === 'response.create')
    expect(sentTypes(h)).toEqual(['response.item.create', 'response.create'])
  })

  test('a channel that still delivers after close() gets nothing run and nothing sent', async () => {
    // LiveSession stops delivering at unsubscribe; a channel that does not must still not start work whose
    // result could never be published.
    let deliver: ((received: ReceivedLiveEvent) => void) | null = null
    const sent: unknown[] = []
    const channel: LiveEventChannel = {
      subscribe: (listener) => {
        deliver = listener
        return () => {}
      },
      send: (event) => {
        sent.push(event)
        return null
      },
    }
    const runtime = new ToolRuntime(new RestaurantTools())
    const controller = new ResponsesDelegationController(channel, runtime)
    await controller.close()
    const item = {
      type: 'function_call',
      call_id: 'call_late',
      name: 'check_availability',
      arguments: checkArgs,
    }
    const late = (event: Record<string, unknown>, seq: number) =>
      (deliver as ((received: ReceivedLiveEvent) => void) | null)?.({
        seq,
        receivedAtMs: seq,
        event: { type: 'response.event', event_id: `e${seq}`, delegation_id: DELEGATION, event },
      } as unknown as ReceivedLiveEvent)
    late({ type: 'response.created', response: { id: 'resp_late', output: [] } }, 1)
    late({ type: 'response.output_item.done', output_index: 0, item: { ...item, status: 'completed' } }, 2)
    late({ type: 'response.completed', response: { id: 'resp_late', output: [] } }, 3)
    await nextMacrotask()
    await runtime.settled()
    expect(runtime.executions()).toEqual([])
    expect(sent).toEqual([])
    expect(controller.pending).toBe(0)
    expect(controller.observation().requestedCalls).toEqual([
      expect.objectContaining({ callId: 'call_late', executed: false }),
    ])
  })

  test('close() is idempotent and a closed controller is quiet', async () => {
    const h = await connect()
    const first = h.controller.close()
    expect(h.controller.close()).toBe(first)
    await first
    await expect(h.controller.wait()).resolves.toBeUndefined()
  })
})
