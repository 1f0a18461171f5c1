// Session protocol (contract §3, §5, §10 "Service protocol"): every malformed or unsupported frame stops the
// session with `client_protocol_error` and "Session stopped", before or after configure, and no backend work
// happens; the scenario-state extension is refused unless the service was started to accept it; a forwarded
// `session.closed` is answered and ends the session normally.
import { describe, expect, it, vi } from 'vitest'
import { MAX_FRAME_DEPTH } from './protocol/index.ts'
import {
  delegationCreated,
  historyItem,
  liveEvent,
  recordingApplication,
  userSaid,
  useServiceHarness,
} from './service.test-helpers.ts'

const harness = useServiceHarness()

async function stoppedWith(frames: unknown[], options: { configure?: boolean } = {}) {
  const application = recordingApplication()
  const service = await harness.start({ application })
  const peer = await harness.connect(service)
  if (options.configure) expect(await peer.configure()).toMatchObject({ type: 'session.ready' })
  for (const frame of frames) {
    if (frame instanceof Uint8Array) peer.socket.send(frame)
    else if (typeof frame === 'string') peer.socket.send(frame)
    else peer.send(frame)
  }
  const error = await peer.until((frame) => frame.type === 'error')
  const code = await peer.closed
  return { application, error, code, service }
}

describe('before configure', () => {
  it.each([
    ['a JSON array', []],
    ['not JSON', '{"type": "session.configure"'],
    ['a JSON string', '"session.configure"'],
    ['an unknown type', { type: 'session.hello' }],
    ['a frame without type', { initial_items: [] }],
    ['a live.event before configure', liveEvent(delegationCreated('deleg_1'))],
    ['a non-object history item', { type: 'session.configure', initial_items: ['bad'] }],
    [
      'a system role',
      {
        type: 'session.configure',
        initial_items: [{ role: 'system', content: [{ type: 'input_text', text: 'x' }] }],
      },
    ],
    ['an empty content list', { type: 'session.configure', initial_items: [{ role: 'user', content: [] }] }],
    [
      'a content part of another type',
      {
        type: 'session.configure',
        initial_items: [{ role: 'user', content: [{ type: 'input_audio', text: 'x' }] }],
      },
    ],
    [
      'an item of another type',
      {
        type: 'session.configure',
        initial_items: [
          { type: 'function_call', role: 'user', content: [{ type: 'input_text', text: 'x' }] },
        ],
      },
    ],
    [
      '101 history items',
      {
        type: 'session.configure',
        initial_items: Array.from({ length: 101 }, () => historyItem('user', 'hi')),
      },
    ],
    ['a non-string model', { type: 'session.configure', model: 5 }],
    ['tools that are not objects', { type: 'session.configure', tools: ['check_availability'] }],
    [
      'an unknown configure key',
      { type: 'session.configure', expected_state: { reservation_created: true } },
    ],
    ['a binary frame', new Uint8Array([1, 2, 3])],
  ])('%s → client_protocol_error, nothing built', async (_label, frame) => {
    const { application, error, code } = await stoppedWith([frame])
    expect(error).toEqual({
      type: 'error',
      error: { code: 'client_protocol_error', message: 'Session stopped' },
    })
    expect(code).toBe(1008)
    expect(application.toolsBuilt + application.backendsBuilt).toBe(0)
  })
})

describe('after configure', () => {
  it.each([
    ['a second configure', { type: 'session.configure', initial_items: [] }],
    ['forwarded input audio', liveEvent({ type: 'session.input_audio.append', audio: 'AAAA' })],
    ['a turn event', liveEvent({ type: 'turn.done', start_ms: -1, turn: { id: 't1' } })],
    [
      'a delegation without id',
      liveEvent({ type: 'session.delegation.created', delegation: { target: 'client' } }),
    ],
    ['a delegation with an empty id', liveEvent(delegationCreated(''))],
    ['a delegation id over 256 characters', liveEvent(delegationCreated('d'.repeat(257)))],
    ['a Responses delegation', liveEvent(delegationCreated('deleg_1', 'responses'))],
    ['a transcript delta whose item is a list', liveEvent({ ...userSaid('hi', 0, 10), item: [] })],
    ['a transcript delta with a boolean start_ms', liveEvent({ ...userSaid('hi', 0, 10), start_ms: true })],
    ['a transcript delta with a fractional end_ms', liveEvent({ ...userSaid('hi', 0, 10), end_ms: 10.5 })],
    ['a transcript delta with a number as delta', liveEvent({ ...userSaid('hi', 0, 10), delta: 7 })],
    [
      'an id-less transcript delta without timing',
      liveEvent({ type: 'session.input_transcript.delta', delta: 'hi' }),
    ],
    ['a live.event with another key', { ...liveEvent(userSaid('hi', 0, 10)), extra: true }],
    ['a live.event without event', { type: 'live.event' }],
    ['session.closed with a negative start_ms', liveEvent({ type: 'session.closed', start_ms: -5 })],
  ])('%s → client_protocol_error, no backend run', async (_label, frame) => {
    const { application, error } = await stoppedWith([frame], { configure: true })
    expect(error).toEqual({
      type: 'error',
      error: { code: 'client_protocol_error', message: 'Session stopped' },
    })
    expect(application.handoffs).toHaveLength(0)
    await vi.waitFor(() => expect(application.closed).toBe(1))
  })

  it('accepts an item-id transcript delta without timing and a delegation with its timeline offset', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.send(
      liveEvent({ type: 'session.input_transcript.delta', item_id: 'item_1', delta: 'Table for two?' }),
    )
    peer.delegate('deleg_1')
    expect(await peer.until((frame) => frame.type === 'live.send')).toMatchObject({ type: 'live.send' })
    expect(application.handoffs[0]?.transcript_srt).toContain('USER: Table for two?')
  })

  it('answers a forwarded session.closed with session.closed, then ends normally', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application })
    const peer = await harness.connect(service)
    await peer.configure()
    peer.send(liveEvent({ type: 'session.closed', reason: 'close_requested' }))
    expect(await peer.next()).toEqual({ type: 'session.closed' })
    expect(await peer.closed).toBe(1000)
    expect(application.closed).toBe(1)
    await vi.waitFor(() => expect(service.activeConnections).toBe(0))
  })

  it('closes an inbound frame over max_message_bytes at the socket layer without any work', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, limits: { max_message_bytes: 256 } })
    const peer = await harness.connect(service)
    peer.send({ type: 'session.configure', initial_items: [historyItem('user', 'x'.repeat(1024))] })
    expect(await peer.closed).toBe(1009)
    expect(application.toolsBuilt + application.backendsBuilt).toBe(0)
    await vi.waitFor(() => expect(service.activeConnections).toBe(0))
  })
})

describe('scenario state (our extension)', () => {
  const state = { authorized_reservation_ids: ['R-100'], reservations: [] }

  it('is a protocol error for a service not started with --accept-scenario-state', async () => {
    const { application, error } = await stoppedWith([
      { type: 'session.configure', application_state: state },
    ])
    expect(error).toMatchObject({ error: { code: 'client_protocol_error' } })
    expect(application.toolsBuilt + application.backendsBuilt).toBe(0)
  })

  it('seeds the tools when accepted, and session.ready reports the state the session starts from', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, acceptScenarioState: true })
    const peer = await harness.connect(service)
    expect(await peer.configure({ application_state: state })).toEqual({
      type: 'session.ready',
      application_state: state,
    })
    expect(application.configures[0]?.application_state).toEqual(state)
  })

  it.each(['expected', 'expected_state', 'criteria', 'golden_tools', 'procedure', 'caller_goal'])(
    'evaluator-only data cannot ride along under %s: refused, nothing built, the sentinel reaches no backend',
    async (key) => {
      const sentinel = `SENTINEL_${key}_7f3a`
      const application = recordingApplication()
      const service = await harness.start({ application, acceptScenarioState: true })
      const peer = await harness.connect(service)
      peer.send({
        type: 'session.configure',
        initial_items: [],
        application_state: {},
        [key]: { note: sentinel },
      })
      expect(await peer.stopCode()).toBe('client_protocol_error')
      expect(application.toolsBuilt + application.backendsBuilt).toBe(0)
      expect(JSON.stringify(application.configures) + JSON.stringify(application.handoffs)).not.toContain(
        sentinel,
      )
    },
  )

  it('conversation_summary is refused the same way without --accept-scenario-state', async () => {
    const { application, error } = await stoppedWith([
      { type: 'session.configure', conversation_summary: 'The caller is Ibrahim.' },
    ])
    expect(error).toMatchObject({ error: { code: 'client_protocol_error' } })
    expect(application.toolsBuilt + application.backendsBuilt).toBe(0)
  })

  it('must be a JSON object', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, acceptScenarioState: true })
    const peer = await harness.connect(service)
    peer.send({ type: 'session.configure', application_state: ['R-100'] })
    expect(await peer.stopCode()).toBe('client_protocol_error')
    expect(application.toolsBuilt).toBe(0)
  })

  it("nested beyond MAX_FRAME_DEPTH is the peer's malformed input, not a service failure", async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, acceptScenarioState: true })
    const peer = await harness.connect(service)
    // Deep enough that cloning or serialising it would overflow the stack; sent as text (stringify would too).
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`
    peer.socket.send(`{"type":"session.configure","initial_items":[],"application_state":{"a":${deep}}}`)
    expect(await peer.stopCode()).toBe('client_protocol_error')
    expect(await peer.closed).toBe(1008)
    expect(application.toolsBuilt + application.backendsBuilt).toBe(0)
  })

  it('nested to MAX_FRAME_DEPTH is accepted', async () => {
    const application = recordingApplication()
    const service = await harness.start({ application, acceptScenarioState: true })
    const peer = await harness.connect(service)
    // The frame is level 1 and application_state level 2; the chain under `root` fills levels 3 to the limit.
    let nested: Record<string, unknown> = {}
    for (let level = 4; level <= MAX_FRAME_DEPTH; level += 1) nested = { next: nested }
    const state = { root: nested }
    expect(await peer.configure({ application_state: state })).toEqual({
      type: 'session.ready',
      application_state: state,
    })
  })
})
