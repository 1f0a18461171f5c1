// What a delegation produces on the wire (contract §4, §5, §7, §8, §10 "Tool evidence", deadlines and
// sanitization, memory): handoff, tool evidence with the service's state, commentary chunks, completion, in
// that order; failures reduced to one fixed error that carries no secret; memory handed over incrementally.
import { describe, expect, it, vi } from 'vitest'
import { callToolObserved } from '../backend/tool-callback.ts'
import { BACKEND_FAILURE_ANSWER } from '../delegation/client-delegation-controller.ts'
import { offlineRestaurantApplication } from './application.ts'
import type { ServiceMessage } from './protocol/index.ts'
import {
  delegationCreated,
  hangingRun,
  historyItem,
  liveEvent,
  type PeerClient,
  recordingApplication,
  userSaid,
  useServiceHarness,
} from './service.test-helpers.ts'

const harness = useServiceHarness()
const SECRET = 'sk-secret-do-not-leak-4242'

/** The frames of one delegation, up to its completion or failure, as `kind` strings. */
async function framesUntilDone(peer: PeerClient): Promise<ServiceMessage[]> {
  const frames: ServiceMessage[] = []
  for (;;) {
    const frame = await peer.next()
    frames.push(frame)
    if (frame.type !== 'assistant.event') continue
    if (frame.event.type === 'client_delegation.completed' || frame.event.type === 'error') return frames
  }
}
const handoffTranscript = (frame: ServiceMessage | undefined): string =>
  frame?.type === 'assistant.event' && typeof frame.event.transcript === 'string'
    ? frame.event.transcript
    : ''
const kind = (frame: ServiceMessage) => (frame.type === 'assistant.event' ? frame.event.type : frame.type)

describe('tool evidence', () => {
  it('sends handoff, tool.completed with the execution and state, the commentary, then the completion', async () => {
    const application = recordingApplication(async (_handoff, { callTool, emit }) => {
      const output = await callTool(
        'check_availability',
        { date: '2026-08-07', time: '19:00', party_size: 4 },
        'call_remote',
      )
      emit({ type: 'tool.completed', call_id: 'call_remote', name: 'check_availability', output })
      return 'A table for 4 is available.'
    })
    const service = await harness.start({ application })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    const frames = await framesUntilDone(peer)
    expect(frames.map(kind)).toEqual([
      'client_delegation.handoff',
      'tool.completed',
      'live.send',
      'client_delegation.completed',
    ])
    expect(frames[1]).toMatchObject({
      event: {
        call_id: 'call_remote',
        delegation_id: 'deleg_1',
        _client_managed: true,
        result: { ok: true, available: true },
        application_state: {},
        tool_execution: { call_id: 'call_remote', name: 'check_availability', status: 'completed' },
      },
    })
    expect(frames[3]).toEqual({
      type: 'assistant.event',
      event: {
        type: 'client_delegation.completed',
        delegation_id: 'deleg_1',
        text: 'A table for 4 is available.',
        _client_managed: true,
      },
    })
  })

  it('publishes a refused call as tool.failed, and the state after a booking', async () => {
    const application = recordingApplication(async (_handoff, { callTool, emit }) => {
      await callToolObserved(callTool, emit, {
        name: 'cancel_reservation',
        arguments: { reservation_id: 'R-9' },
        callId: 'call_a',
      })
      await callToolObserved(callTool, emit, {
        name: 'create_reservation',
        arguments: { guest_name: 'Ada', date: '2026-08-07', time: '19:00', party_size: 2 },
        callId: 'call_b',
      })
      return 'Booked.'
    })
    const service = await harness.start({ application })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    const frames = await framesUntilDone(peer)
    expect(frames.map(kind)).toEqual([
      'client_delegation.handoff',
      'tool.called',
      'tool.failed',
      'tool.called',
      'tool.completed',
      'live.send',
      'client_delegation.completed',
    ])
    expect(frames[2]).toMatchObject({
      event: {
        error: 'Not authorized to cancel reservation R-9',
        application_state: {},
        tool_execution: { call_id: 'call_a', status: 'failed', output: { ok: false } },
      },
    })
    expect(frames[4]).toMatchObject({
      event: {
        result: { reservation_id: 'R-001' },
        application_state: { reservation_created: true, guest_name: 'Ada' },
        tool_execution: { call_id: 'call_b', status: 'completed' },
      },
    })
  })

  it('runs the restaurant application with the offline backend over the accepted scenario state', async () => {
    const service = await harness.start({
      application: offlineRestaurantApplication,
      acceptScenarioState: true,
    })
    const peer = await harness.connect(service)
    await peer.configure({ application_state: { authorized_reservation_ids: ['R-001'] } })
    peer.send(liveEvent(userSaid('Is a table for 4 available on August 7 at 7 p.m.?', 400, 2_600)))
    peer.delegate('deleg_1')
    const frames = await framesUntilDone(peer)
    const completed = frames.find((frame) => kind(frame) === 'tool.completed')
    expect(completed).toMatchObject({
      event: {
        name: 'check_availability',
        application_state: { authorized_reservation_ids: ['R-001'] },
        tool_execution: {
          status: 'completed',
          arguments: { date: '2026-08-07', time: '19:00', party_size: 4 },
        },
      },
    })
    const said = frames.flatMap((frame) => (frame.type === 'live.send' ? [frame.event.content] : [])).join('')
    expect(said).toContain('available')
  })

  it('an accepted conversation summary is context the offline backend acts on', async () => {
    const summary = 'The caller is Ibrahim and is planning a dinner on August 25 for eight.'
    const request = 'Could you first see if 8pm is available for that night?'
    const toolArguments = async (configure: object) => {
      const service = await harness.start({
        application: offlineRestaurantApplication,
        acceptScenarioState: true,
      })
      const peer = await harness.connect(service)
      await peer.configure({
        application_state: { reservations: [], authorized_reservation_ids: [] },
        ...configure,
      })
      peer.send(liveEvent(userSaid(request, 400, 2_600)))
      peer.delegate('deleg_1')
      const frames = await framesUntilDone(peer)
      const completed = frames.find((frame) => kind(frame) === 'tool.completed')
      return completed?.type === 'assistant.event' ? completed.event.tool_execution : null
    }
    expect(await toolArguments({ conversation_summary: summary })).toMatchObject({
      name: 'check_availability',
      arguments: { date: '2026-08-25', time: '20:00', party_size: 8 },
    })
    expect(await toolArguments({})).toBeNull()
  })
})

describe('commentary', () => {
  it('splits a long answer into chunks of at most 400 UTF-8 bytes that rejoin exactly', async () => {
    const answer = 'Confirmed ✓ '.repeat(90)
    const service = await harness.start({ application: recordingApplication(async () => answer) })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    const frames = await framesUntilDone(peer)
    const sends = frames.flatMap((frame) => (frame.type === 'live.send' ? [frame.event] : []))
    expect(sends.length).toBeGreaterThan(1)
    for (const send of sends) {
      expect(Buffer.byteLength(send.content, 'utf8')).toBeLessThanOrEqual(400)
      expect(send.event_id).toMatch(/^event_[0-9a-f]{32}$/)
      expect(send.delegation_id).toBe('deleg_1')
    }
    expect(sends.map((send) => send.content).join('')).toBe(answer)
    expect(new Set(sends.map((send) => send.event_id)).size).toBe(sends.length)
    expect(kind(frames.at(-1) as ServiceMessage)).toBe('client_delegation.completed')
  })

  it('a blank answer fails the delegation with the sanitized error', async () => {
    const service = await harness.start({ application: recordingApplication(async () => '   ') })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    const frames = await framesUntilDone(peer)
    expect(frames.map(kind)).toEqual(['client_delegation.handoff', 'live.send', 'error'])
  })
})

describe('failures are sanitized', () => {
  it('a delegation over its deadline is cancelled; the error is fixed; the session goes on', async () => {
    const lines: string[] = []
    const application = recordingApplication(hangingRun)
    const service = await harness.start({
      application,
      limits: { delegation_timeout: 0.05 },
      log: (line) => lines.push(line),
    })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    const frames = await framesUntilDone(peer)
    // GPT-Live is given the failure answer before the failure is reported (a connector stops relaying there).
    expect(frames.map(kind)).toEqual(['client_delegation.handoff', 'live.send', 'error'])
    expect(frames[1]).toMatchObject({
      event: { type: 'session.commentary.append', delegation_id: 'deleg_1', content: BACKEND_FAILURE_ANSWER },
    })
    expect(frames.at(-1)).toEqual({
      type: 'assistant.event',
      event: { type: 'error', error: { code: 'client_assistant_error', message: 'Backend work failed' } },
    })
    expect(application.cancelled).toBe(1)
    peer.send(liveEvent({ type: 'session.closed' }))
    expect(await peer.next()).toEqual({ type: 'session.closed' })
    expect(application.closed).toBe(1)
    expect(lines.join('\n')).not.toContain('deleg_1')
  })

  it.each([
    ['throws a secret', async () => Promise.reject(new Error(`backend failed with key ${SECRET}`))],
    [
      'answers after the deadline with a secret',
      () => new Promise<string>((resolve) => setTimeout(() => resolve(SECRET), 200)),
    ],
  ])('a backend that %s: the secret reaches neither the frames nor the logs', async (_label, run) => {
    const lines: string[] = []
    const application = recordingApplication(run)
    const service = await harness.start({
      application,
      limits: { delegation_timeout: 0.05 },
      log: (line) => lines.push(line),
    })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    const frames = await framesUntilDone(peer)
    expect(kind(frames.at(-1) as ServiceMessage)).toBe('error')
    await peer.close()
    await vi.waitFor(() => expect(application.closed).toBe(1))
    expect(JSON.stringify(peer.frames)).not.toContain(SECRET)
    expect(lines.join('\n')).not.toContain(SECRET)
    expect(lines.length).toBeGreaterThan(0)
  })

  it('a backend event too big for max_message_bytes fails its delegation instead of being sent', async () => {
    const application = recordingApplication(async (_handoff, { emit }) => {
      emit({ type: 'client_delegation.progress', blob: 'x'.repeat(4_096) })
      return 'never said'
    })
    const service = await harness.start({ application, limits: { max_message_bytes: 2_048 } })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.delegate('deleg_1')
    const frames = await framesUntilDone(peer)
    expect(frames.map(kind)).toEqual(['client_delegation.handoff', 'error'])
    peer.send(liveEvent({ type: 'session.closed' }))
    expect(await peer.next()).toEqual({ type: 'session.closed' })
    expect(peer.frames.some((frame) => frame.type === 'live.send')).toBe(false)
  })

  it('a factory that throws stops the session with client_assistant_error and logs only the class', async () => {
    const lines: string[] = []
    const application = recordingApplication()
    application.backend = () => {
      throw new TypeError(`cannot reach ${SECRET}`)
    }
    const service = await harness.start({ application, log: (line) => lines.push(line) })
    const peer = await harness.connect(service)
    peer.send({ type: 'session.configure' })
    expect(await peer.next()).toEqual({
      type: 'error',
      error: { code: 'client_assistant_error', message: 'Session stopped' },
    })
    expect(await peer.closed).toBe(1011)
    expect(lines).toEqual(['client-assistant: session stopped (TypeError)'])
  })
})

describe('configure and memory', () => {
  it('hands a non-OpenAI backend the configure (model included), with no OpenAI key anywhere', async () => {
    const application = recordingApplication(
      async (_handoff, { configure }) => `Running on ${configure.model}.`,
    )
    const service = await harness.start({ application, env: {} })
    const peer = await harness.connect(service)
    await peer.configure({ model: 'acme-agent-7', instructions: 'Be brief.', tools: [{ name: 'lookup' }] })
    peer.delegate('deleg_1')
    expect(await peer.until((frame) => frame.type === 'live.send')).toMatchObject({
      event: { content: 'Running on acme-agent-7.' },
    })
    expect(application.configures[0]).toMatchObject({ model: 'acme-agent-7', instructions: 'Be brief.' })
  })

  it('hands history and new transcript to the first delegation, only what is new to the next', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application })
    const peer = await harness.connect(service)
    await peer.configure({ initial_items: [historyItem('user', 'I booked last week.')] })
    peer.send(liveEvent(userSaid('Book Friday', 500, 1_400)))
    peer.delegate('deleg_1')
    const first = await framesUntilDone(peer)
    expect(first[0]).toMatchObject({
      event: {
        type: 'client_delegation.handoff',
        follow_up: false,
        task: expect.stringContaining('Resolve the current user request'),
      },
    })
    const transcript = handoffTranscript(first[0])
    expect(transcript).toContain('USER: I booked last week.')
    expect(transcript).toContain('USER: Book Friday')
    peer.send(liveEvent(userSaid('Actually, Saturday.', 5_000, 6_000)))
    peer.delegate('deleg_1')
    peer.send(liveEvent(delegationCreated('deleg_2')))
    const second = await framesUntilDone(peer)
    expect(second[0]).toMatchObject({ event: { delegation_id: 'deleg_2', follow_up: true } })
    const next = handoffTranscript(second[0])
    expect(next).toContain('USER: Actually, Saturday.')
    expect(next).not.toContain('Friday')
    expect(application.handoffs).toHaveLength(2)
  })
})
