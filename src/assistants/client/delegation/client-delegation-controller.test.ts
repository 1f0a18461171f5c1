import type { CommentaryAppendEvent } from 'openai/resources/live/live'
import { describe, expect, it } from 'vitest'
import type {
  ApplicationBackend,
  DelegationHandoff,
  EmitObservation,
  ObservationEvent,
} from '../backend/application-backend.ts'
import { DELEGATED_TASK } from '../backend/application-backend.ts'
import { BACKEND_FAILURE_ANSWER, ClientDelegationController } from './client-delegation-controller.ts'

/** A backend the test scripts: answers by function, records handoffs, can be held open. */
class ScriptedBackend implements ApplicationBackend {
  readonly handoffs: DelegationHandoff[] = []
  closeCount = 0
  readonly #answer: (handoff: DelegationHandoff, emit: EmitObservation) => Promise<string>

  constructor(answer: (handoff: DelegationHandoff, emit: EmitObservation) => Promise<string> | string) {
    this.#answer = async (handoff, emit) => answer(handoff, emit)
  }

  run(handoff: DelegationHandoff, emit: EmitObservation): Promise<string> {
    this.handoffs.push(handoff)
    return this.#answer(handoff, emit)
  }

  async close(): Promise<void> {
    this.closeCount += 1
  }
}

function gate() {
  let open!: (value: string) => void
  const opened = new Promise<string>((resolve) => {
    open = resolve
  })
  return { opened, open }
}

function setup(
  backend: ApplicationBackend,
  options: {
    liveAccepts?: boolean
    deadlineMs?: number
    initialItems?: unknown[]
    failureAnswer?: string | null
  } = {},
) {
  const sent: CommentaryAppendEvent[] = []
  const observed: ObservationEvent[] = []
  const controller = new ClientDelegationController({
    backend,
    sendToLive: (event) => {
      sent.push(event)
      return options.liveAccepts ?? true
    },
    emit: (event) => observed.push(event),
    ...(options.initialItems === undefined ? {} : { initialItems: options.initialItems }),
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
    ...(options.failureAnswer === undefined ? {} : { failureAnswer: options.failureAnswer }),
  })
  return { controller, sent, observed }
}

let eventCounter = 0
const delegation = (id: string, target = 'client') => ({
  type: 'session.delegation.created',
  event_id: `event_d${++eventCounter}`,
  offset_ms: 1_000,
  delegation: { id, type: 'delegation', target },
})
const heard = (delta: string, start: number, end: number) => ({
  type: 'session.input_transcript.delta',
  event_id: `event_t${++eventCounter}`,
  delta,
  start_ms: start,
  end_ms: end,
})
const macrotask = () => new Promise((resolve) => setImmediate(resolve))

describe('ClientDelegationController', () => {
  it('hands the backend the history and the transcript so far, with the fixed task', async () => {
    const backend = new ScriptedBackend(() => 'Done.')
    const { controller } = setup(backend, {
      initialItems: [{ role: 'user', content: [{ text: 'I am Rivera.' }] }],
    })
    controller.observe(heard('Is Thursday free?', 600, 1_900))
    controller.observe(delegation('item_1'))
    await controller.wait()
    const [handoff] = backend.handoffs
    expect(handoff?.task).toBe(DELEGATED_TASK)
    expect(handoff?.follow_up).toBe(false)
    expect(handoff?.transcript_srt).toContain('USER: I am Rivera.')
    expect(handoff?.transcript_srt).toContain('00:00:00,600 --> 00:00:01,900\nUSER: Is Thursday free?')
  })

  it('runs the backend once for a delegation id seen twice', async () => {
    const backend = new ScriptedBackend(() => 'Done.')
    const { controller, sent } = setup(backend)
    controller.observe(delegation('item_1'))
    controller.observe(delegation('item_1'))
    await controller.wait()
    expect(backend.handoffs).toHaveLength(1)
    expect(sent).toHaveLength(1)
    expect(controller.delegationIds).toEqual(['item_1'])
  })

  it('sends the exact answer as commentary with the delegation id; the completion is the last observation', async () => {
    const backend = new ScriptedBackend((_handoff, emit) => {
      emit({ type: 'tool.called', call_id: 'call_1', name: 'check_availability', arguments: {} })
      return 'Thursday at 2:00 PM is available.'
    })
    const { controller, sent, observed } = setup(backend)
    controller.observe(delegation('item_1'))
    await controller.wait()
    expect(sent).toEqual([
      {
        type: 'session.commentary.append',
        event_id: 'commentary_1',
        delegation_id: 'item_1',
        content: 'Thursday at 2:00 PM is available.',
      },
    ])
    expect(observed.map((event) => event.type)).toEqual([
      'client_delegation.handoff',
      'tool.called',
      'client_delegation.completed',
    ])
    expect(observed[1]).toMatchObject({ delegation_id: 'item_1' })
    expect(observed.at(-1)).toEqual({
      type: 'client_delegation.completed',
      delegation_id: 'item_1',
      text: 'Thursday at 2:00 PM is available.',
    })
  })

  it('splits a long answer into ≤ 400-byte chunks that rejoin to the answer', async () => {
    const answer = 'Confirmed ✓ '.repeat(90)
    const { controller, sent } = setup(new ScriptedBackend(() => answer))
    controller.observe(delegation('item_1'))
    await controller.wait()
    expect(sent.length).toBeGreaterThan(1)
    expect(
      sent.every((event) => Buffer.byteLength(event.content) <= 400 && event.delegation_id === 'item_1'),
    ).toBe(true)
    expect(sent.map((event) => event.content).join('')).toBe(answer)
    expect(new Set(sent.map((event) => event.event_id)).size).toBe(sent.length)
  })

  it('numbers commentary event ids per controller, so two runs of the same input send the same ids', async () => {
    const run = async () => {
      const { controller, sent } = setup(new ScriptedBackend(() => 'Confirmed. '.repeat(60)))
      controller.observe(delegation('item_1'))
      await controller.wait()
      controller.observe(delegation('item_2'))
      await controller.wait()
      return sent.map((event) => event.event_id)
    }
    const first = await run()
    expect(first.length).toBeGreaterThan(2)
    expect(first).toEqual(first.map((_, index) => `commentary_${index + 1}`))
    expect(await run()).toEqual(first)
  })

  it('ignores responses-target delegations and delegations without an id', async () => {
    const backend = new ScriptedBackend(() => 'Done.')
    const { controller } = setup(backend)
    controller.observe(delegation('item_r', 'responses'))
    controller.observe(delegation(''))
    controller.observe({ type: 'session.delegation.created', delegation: { target: 'client' } })
    expect(controller.pending).toBe(0)
    await controller.wait()
    expect(backend.handoffs).toHaveLength(0)
  })

  it('marks a follow-up and hands over only what is new since the previous delegation', async () => {
    const backend = new ScriptedBackend(() => 'Done.')
    const { controller } = setup(backend)
    controller.observe(heard('Book Friday.', 0, 1_000))
    controller.observe(delegation('item_1'))
    await controller.wait()
    controller.observe(delegation('item_2'))
    await controller.wait()
    controller.observe(heard('Actually, Saturday.', 5_000, 6_000))
    controller.observe(delegation('item_3'))
    await controller.wait()
    expect(backend.handoffs.map((handoff) => [handoff.follow_up, handoff.transcript_srt])).toEqual([
      [false, '1\n00:00:00,000 --> 00:00:01,000\nUSER: Book Friday.'],
      [true, ''],
      [true, '1\n00:00:05,000 --> 00:00:06,000\nUSER: Actually, Saturday.'],
    ])
  })

  it('is pending from acceptance until the answer is published; a cancelled waiter leaves the work pending', async () => {
    const answer = gate()
    const { controller, sent } = setup(new ScriptedBackend(() => answer.opened))
    controller.observe(delegation('item_1'))
    expect(controller.pending).toBe(1)
    const abandon = new AbortController()
    const abandoned = controller.wait({ signal: abandon.signal })
    abandon.abort(new Error('test gave up'))
    await expect(abandoned).rejects.toThrow('test gave up')
    await macrotask()
    expect(controller.pending).toBe(1)
    expect(sent).toHaveLength(0)
    answer.open('Done.')
    await controller.wait()
    expect(controller.pending).toBe(0)
    expect(sent).toHaveLength(1)
  })

  it('treats a blank answer as a failure with a retained error and an error observation', async () => {
    const { controller, sent, observed } = setup(new ScriptedBackend(() => '   '))
    controller.observe(delegation('item_1'))
    await expect(controller.wait()).rejects.toThrow('Client delegation failed (BlankAnswerError)')
    expect(sent).toEqual([
      expect.objectContaining({ delegation_id: 'item_1', content: BACKEND_FAILURE_ANSWER }),
    ])
    expect(observed.at(-1)).toEqual({
      type: 'error',
      error: { code: 'client_delegation_failed', message: 'Client delegation failed (BlankAnswerError)' },
      delegation_id: 'item_1',
    })
  })

  it('names only the class of a backend failure, never its message', async () => {
    class LeakyBackendError extends Error {}
    const backend = new ScriptedBackend(() => {
      throw new LeakyBackendError('sk-SECRET-123 in the message')
    })
    const { controller, observed } = setup(backend)
    controller.observe(delegation('item_1'))
    await expect(controller.wait()).rejects.toThrow('Client delegation failed (LeakyBackendError)')
    expect(JSON.stringify(observed)).not.toContain('SECRET')
    expect(controller.error?.message).not.toContain('SECRET')
  })

  it('fails a delegation that misses its deadline', async () => {
    const { controller, sent } = setup(new ScriptedBackend(() => new Promise<string>(() => {})), {
      deadlineMs: 20,
    })
    controller.observe(delegation('item_1'))
    await expect(controller.wait()).rejects.toThrow('Client delegation failed (DelegationDeadlineError)')
    expect(sent.map((event) => event.content)).toEqual([BACKEND_FAILURE_ANSWER])
    expect(controller.pending).toBe(0)
  })

  it('tells GPT-Live a failed backend failed, so the caller is not left waiting; the failure is still retained', async () => {
    const backend = new ScriptedBackend(() => {
      throw new Error('503')
    })
    const { controller, sent, observed } = setup(backend)
    controller.observe(delegation('item_1'))
    await expect(controller.wait()).rejects.toThrow('Client delegation failed (Error)')
    expect(sent).toEqual([
      {
        type: 'session.commentary.append',
        event_id: 'commentary_1',
        delegation_id: 'item_1',
        content: BACKEND_FAILURE_ANSWER,
      },
    ])
    expect(controller.isRunning('item_1')).toBe(false)
    expect(controller.commentary()).toMatchObject([{ delegationId: 'item_1', status: 'sent' }])
    expect(observed.at(-1)).toMatchObject({ type: 'error', error: { code: 'client_delegation_failed' } })
  })

  it("says the application's own failure answer, or nothing with failureAnswer null", async () => {
    const failing = () =>
      new ScriptedBackend(() => {
        throw new Error('503')
      })
    const own = setup(failing(), { failureAnswer: 'The booking system is down; nothing was booked.' })
    own.controller.observe(delegation('item_1'))
    await expect(own.controller.wait()).rejects.toThrow()
    expect(own.sent.map((event) => event.content)).toEqual([
      'The booking system is down; nothing was booked.',
    ])
    const silent = setup(failing(), { failureAnswer: null })
    silent.controller.observe(delegation('item_1'))
    await expect(silent.controller.wait()).rejects.toThrow()
    expect(silent.sent).toEqual([])
  })

  it('retains "Client delegation was cancelled" when one delegation is cancelled', async () => {
    const { controller, sent, observed } = setup(new ScriptedBackend(() => new Promise<string>(() => {})))
    controller.observe(delegation('item_1'))
    expect(controller.cancel('item_1')).toBe(true)
    expect(controller.cancel('unknown')).toBe(false)
    await expect(controller.wait()).rejects.toThrow(/^Client delegation was cancelled$/)
    // Called off on purpose: no failure answer.
    expect(sent).toEqual([])
    expect(observed.at(-1)).toMatchObject({ type: 'error', error: { code: 'client_delegation_cancelled' } })
  })

  it('fails when the Live session no longer accepts commentary', async () => {
    const { controller, sent } = setup(new ScriptedBackend(() => 'Done.'), { liveAccepts: false })
    controller.observe(delegation('item_1'))
    await expect(controller.wait()).rejects.toThrow('Client delegation failed (LiveUnavailableError)')
    // The answer it tried, and no failure answer after it: the session takes nothing any more.
    expect(sent.map((event) => event.content)).toEqual(['Done.'])
  })

  it('tracks acceptance by session.commentary.appended client_event_id, and a refusal by error', async () => {
    const { controller, sent } = setup(new ScriptedBackend(() => 'Done.'))
    controller.observe(delegation('item_1'))
    await controller.wait()
    const eventId = sent[0]?.event_id as string
    expect(controller.commentary()[0]).toMatchObject({ eventId, status: 'sent', startMs: null })
    controller.observe({
      type: 'session.commentary.appended',
      event_id: 'e9',
      client_event_id: 'other',
      start_ms: 1,
      end_ms: 2,
    })
    expect(controller.commentary()[0]?.status).toBe('sent')
    controller.observe({
      type: 'session.commentary.appended',
      event_id: 'e10',
      client_event_id: eventId,
      start_ms: 3_200,
      end_ms: 3_600,
    })
    expect(controller.commentary()[0]).toMatchObject({ status: 'accepted', startMs: 3_200, endMs: 3_600 })

    const second = setup(new ScriptedBackend(() => 'Done.'))
    second.controller.observe(delegation('item_2'))
    await second.controller.wait()
    const refused = second.sent[0]?.event_id as string
    second.controller.observe({
      type: 'error',
      event_id: 'e11',
      error: {
        type: 'invalid_request_error',
        code: 'invalid_value',
        message: 'no',
        client_event_id: refused,
      },
    })
    expect(second.controller.commentary()[0]?.status).toBe('rejected')
    await expect(second.controller.wait()).rejects.toThrow(
      'Client delegation failed (CommentaryRejectedError)',
    )
  })

  it('close() cancels and joins running work, wakes waiters, closes the backend once, and stops accepting', async () => {
    const backend = new ScriptedBackend(() => new Promise<string>(() => {}))
    const { controller, sent, observed } = setup(backend)
    controller.observe(delegation('item_1'))
    const waiting = controller.wait()
    await Promise.all([controller.close(), controller.close()])
    await expect(waiting).rejects.toThrow('Client delegation was cancelled during close')
    expect(controller.pending).toBe(0)
    expect(backend.closeCount).toBe(1)
    expect(sent).toHaveLength(0)
    expect(observed.at(-1)).toMatchObject({ type: 'error', delegation_id: 'item_1' })
    controller.observe(delegation('item_2'))
    expect(backend.handoffs).toHaveLength(1)
    expect(controller.pending).toBe(0)
  })

  it('drops observations a cancelled backend still emits', async () => {
    let lateEmit: EmitObservation | null = null
    const backend = new ScriptedBackend((_handoff, emit) => {
      lateEmit = emit
      return new Promise<string>(() => {})
    })
    const { controller, observed } = setup(backend)
    controller.observe(delegation('item_1'))
    controller.cancel('item_1')
    await expect(controller.wait()).rejects.toThrow('cancelled')
    const count = observed.length
    ;(lateEmit as EmitObservation | null)?.({ type: 'tool.called', call_id: 'late' })
    expect(observed).toHaveLength(count)
  })

  it('retains a failure to close the backend, by class only', async () => {
    class BrokenCloseError extends Error {}
    const backend = new ScriptedBackend(() => 'Done.')
    backend.close = async () => {
      throw new BrokenCloseError('secret detail')
    }
    const { controller } = setup(backend)
    await controller.close()
    expect(controller.error?.message).toBe('Closing the client backend failed (BrokenCloseError)')
  })

  it('closes cleanly with nothing pending', async () => {
    const backend = new ScriptedBackend(() => 'Done.')
    const { controller } = setup(backend)
    controller.observe(delegation('item_1'))
    await controller.wait()
    await controller.close()
    expect(controller.error).toBeNull()
    expect(backend.closeCount).toBe(1)
    await expect(controller.wait()).resolves.toBeUndefined()
  })
})
