// The connector's lifecycle against a scripted service on a real loopback socket (contract §3–§5, §10
// "Connector lifecycle"): what is forwarded, how results are relayed and completed, pending/wait/close, and
// exactly one error per failure with the §5 code and a message that carries nothing the peer sent.
import { describe, expect, it } from 'vitest'
import {
  assistantEvent,
  created,
  errorsIn,
  liveClosed,
  liveSend,
  rejectionOf,
  type ScriptedPeer,
  until,
  userSaid,
  useScriptedServices,
} from './connector.test-helpers.ts'
import { CONNECTOR_MESSAGES, CONNECTOR_STAGE } from './errors.ts'

const services = useScriptedServices()
const PEER_SECRET = 'sk-peer-secret-that-must-never-surface'

describe('forwarding Live events', () => {
  it('forwards exactly the four event types, never audio, turns or acknowledgements', async () => {
    const { connector, peer } = await services.connected()
    connector.observe({ type: 'session.output_audio.delta', delta: 'AAAA', start_ms: 0, end_ms: 20 })
    connector.observe({ type: 'session.input_audio.append', audio: 'AAAA' })
    connector.observe({ type: 'turn.done', turn: { id: 't1' }, start_ms: true })
    connector.observe({ type: 'session.input_audio.unmuted', client_event_id: 'evt_1' })
    connector.observe(userSaid('Table for two'))
    connector.observe({ type: 'session.output_transcript.delta', item_id: 'item_1', delta: 'Sure' })
    connector.observe(created('d1'))
    connector.observe(liveClosed())
    // Forwarding Live's close stops new work: a later delegation is not forwarded.
    connector.observe(created('late'))
    await until(() => peer.forwarded().length === 4)
    expect(peer.forwarded().map((event) => event.type)).toEqual([
      'session.input_transcript.delta',
      'session.output_transcript.delta',
      'session.delegation.created',
      'session.closed',
    ])
    expect(connector.delegationIds).toEqual(['d1'])
    // Forwarded unchanged, in the two-key envelope.
    expect(peer.received[1]).toEqual({ type: 'live.event', event: userSaid('Table for two') })
  })

  it('forwards a delegation id once (one, two, one) and is quiet only after both completed', async () => {
    const { connector, peer, live, emitted } = await services.connected()
    connector.observe(created('one'))
    connector.observe(created('two'))
    connector.observe(created('one'))
    await until(() => peer.forwarded().length === 2)
    expect(peer.forwarded().map((event) => (event.delegation as { id: string }).id)).toEqual(['one', 'two'])
    expect(connector.pending).toBe(2)
    let quiet = false
    const waiting = connector.wait().then(() => {
      quiet = true
    })
    peer.answer('one', 'First answer.')
    await until(() => connector.pending === 1)
    expect(quiet).toBe(false)
    peer.answer('two', 'Second answer.')
    await waiting
    expect(live.map((event) => [event.delegation_id, event.content])).toEqual([
      ['one', 'First answer.'],
      ['two', 'Second answer.'],
    ])
    expect(emitted.filter((event) => event.type === 'client_delegation.completed')).toHaveLength(2)
    expect(errorsIn(emitted)).toEqual([])
  })

  it('marks a delegation pending the moment it is seen, before the service is even ready', async () => {
    const service = await services.start()
    const { connector } = services.connector(service)
    const starting = connector.start()
    connector.observe(created('early'))
    expect(connector.pending).toBe(1)
    const peer = await service.nextPeer()
    await peer.ready()
    await starting
    await until(() => peer.forwarded().length === 1)
    expect(peer.forwarded()[0]).toMatchObject({ delegation: { id: 'early' } })
  })

  it.each([
    ['a delegation with another target', created('d1', 'responses')],
    ['a delegation without an id', { type: 'session.delegation.created', delegation: { target: 'client' } }],
    ['a delegation id over 256 characters', created('x'.repeat(257))],
    ['a transcript delta whose item is not an object', { ...userSaid('hi'), item: [] }],
    ['a boolean start_ms', { ...userSaid('hi'), start_ms: true }],
    ['an id-less delta without timing', { type: 'session.input_transcript.delta', delta: 'hi' }],
  ])('refuses %s as a protocol error, forwarding nothing', async (_name, event) => {
    const { connector, peer, emitted } = await services.connected()
    expect(() => connector.observe(event)).toThrow(
      CONNECTOR_MESSAGES.receiverFailed('ClientAssistantProtocolError'),
    )
    expect(errorsIn(emitted)).toEqual([
      {
        type: 'error',
        error: {
          code: 'client_assistant_protocol_error',
          message: 'Client assistant receiver failed (ClientAssistantProtocolError)',
        },
      },
    ])
    await peer.closed
    expect(peer.forwarded()).toEqual([])
  })
})

describe('relaying results', () => {
  it('holds pending while the commentary is relayed and releases it on the valid completion', async () => {
    const { connector, peer, live, emitted, observer } = await services.connected()
    connector.observe(created('d1'))
    await until(() => peer.forwarded().length === 1)
    peer.send(
      assistantEvent(
        { type: 'client_delegation.handoff', task: 't', transcript: '', follow_up: false },
        'd1',
      ),
    )
    peer.send(liveSend('d1', 'A table is free.'))
    await until(() => live.length === 1)
    expect(connector.pending).toBe(1)
    expect(live[0]).toEqual({
      type: 'session.commentary.append',
      event_id: 'event_d1',
      delegation_id: 'd1',
      content: 'A table is free.',
    })
    peer.send(
      assistantEvent(
        {
          type: 'tool.completed',
          name: 'check_availability',
          call_id: 'call_remote',
          arguments: {},
          result: { available: true },
          application_state: { reservations: [] },
          tool_execution: {
            call_id: 'call_remote',
            name: 'check_availability',
            arguments: {},
            status: 'completed',
            output: { available: true },
          },
        },
        'd1',
      ),
    )
    peer.send(assistantEvent({ type: 'client_delegation.completed', text: 'A table is free.' }, 'd1'))
    await connector.wait()
    expect(connector.pending).toBe(0)
    expect(emitted.map((event) => event.type)).toEqual([
      'client_delegation.handoff',
      'tool.completed',
      'client_delegation.completed',
    ])
    expect(observer.executions.map((record) => [record.call_id, record.name, record.status])).toEqual([
      ['call_remote', 'check_availability', 'completed'],
    ])
    expect(observer.snapshot()).toEqual({ reservations: [] })
  })

  it('ignores a repeated completion: not emitted, completes nothing', async () => {
    const { connector, peer, emitted } = await services.connected()
    connector.observe(created('d1'))
    peer.answer('d1', 'Done.')
    await connector.wait()
    peer.send(assistantEvent({ type: 'client_delegation.completed', text: 'Done.' }, 'd1'))
    connector.observe(created('d2'))
    peer.answer('d2', 'Also done.')
    await connector.wait()
    expect(emitted.filter((event) => event.type === 'client_delegation.completed')).toHaveLength(2)
    expect(errorsIn(emitted)).toEqual([])
  })

  it('cancelling a waiter keeps the work pending', async () => {
    const { connector, peer } = await services.connected()
    connector.observe(created('d1'))
    const cancel = new AbortController()
    const waiting = connector.wait({ signal: cancel.signal })
    cancel.abort(new Error('test gave up waiting'))
    await expect(waiting).rejects.toThrow('test gave up waiting')
    expect(connector.pending).toBe(1)
    peer.answer('d1', 'Done.')
    await connector.wait()
  })

  it('ignores binary frames and pings from the service', async () => {
    const { connector, peer, emitted } = await services.connected()
    connector.observe(created('d1'))
    peer.sendRaw(Buffer.from([1, 2, 3]), true)
    peer.socket.ping()
    peer.answer('d1', 'Done.')
    await connector.wait()
    expect(errorsIn(emitted)).toEqual([])
  })
})

describe('one error per failure (§5 table)', () => {
  const protocolFailure = {
    code: 'client_assistant_protocol_error',
    message: 'Client assistant receiver failed (ClientAssistantProtocolError)',
  }
  it.each([
    ['invalid JSON', (peer: Peer) => peer.sendRaw(`{"secret":"${PEER_SECRET}"`), protocolFailure],
    ['a JSON array', (peer: Peer) => peer.sendRaw('[]'), protocolFailure],
    ['an unknown type', (peer: Peer) => peer.send({ type: PEER_SECRET }), protocolFailure],
    [
      'a completion for an unknown delegation',
      (peer: Peer) =>
        peer.send(assistantEvent({ type: 'client_delegation.completed', text: PEER_SECRET }, 'other')),
      protocolFailure,
    ],
    [
      'a completion before the result was published',
      (peer: Peer) =>
        peer.send(assistantEvent({ type: 'client_delegation.completed', text: PEER_SECRET }, 'd1')),
      protocolFailure,
    ],
    [
      'a live.send for an unknown delegation',
      (peer: Peer) => peer.send(liveSend('other', PEER_SECRET)),
      protocolFailure,
    ],
    [
      'a live.send that is not commentary',
      (peer: Peer) =>
        peer.send({
          type: 'live.send',
          event: { type: 'session.thinking.append', delegation_id: 'd1', content: 'x' },
        }),
      protocolFailure,
    ],
    ['an unexpected session.closed', (peer: Peer) => peer.send({ type: 'session.closed' }), protocolFailure],
    [
      'a tool event whose state nests 50,000 deep (beyond MAX_FRAME_DEPTH)',
      (peer: Peer) => {
        // Otherwise well formed: only the depth check tells this from the service's own valid tool event.
        const event = assistantEvent(
          {
            type: 'tool.completed',
            name: 'check_availability',
            call_id: 'call_deep',
            arguments: {},
            result: { available: true },
            application_state: { reservations: 'DEEP' },
            tool_execution: {
              call_id: 'call_deep',
              name: 'check_availability',
              arguments: {},
              status: 'completed',
              output: { available: true },
            },
          },
          'd1',
        )
        const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`
        peer.sendRaw(JSON.stringify(event).replace('"DEEP"', deep))
      },
      protocolFailure,
    ],
    [
      'a nested error',
      (peer: Peer) =>
        peer.send({ type: 'assistant.event', event: { type: 'error', error: { message: PEER_SECRET } } }),
      { code: 'client_assistant_error', message: 'Client assistant backend work failed' },
    ],
    [
      'a top-level error',
      (peer: Peer) =>
        peer.send({ type: 'error', error: { code: 'client_limit_reached', message: PEER_SECRET } }),
      { code: 'client_assistant_error', message: 'Client assistant session failed' },
    ],
    [
      'the socket ending unexpectedly',
      (peer: Peer) => peer.socket.close(1000, PEER_SECRET.slice(0, 20)),
      { code: 'client_assistant_unexpected_eof', message: 'Client assistant WebSocket ended unexpectedly' },
    ],
    [
      'a socket exception (invalid close code)',
      (peer: Peer) => {
        // A frame no WebSocket may send: close code 1005 on the wire.
        const raw = (peer.socket as unknown as { _socket: { write(data: Buffer): void } })._socket
        raw.write(Buffer.from([0x88, 0x02, 0x03, 0xed]))
      },
      { code: 'client_assistant_connection', message: 'Client assistant receiver failed (RangeError)' },
    ],
    [
      'a frame over the 256 KiB inbound limit',
      (peer: Peer) => peer.sendRaw(JSON.stringify({ type: 'assistant.event', pad: 'x'.repeat(300 * 1024) })),
      { code: 'client_assistant_connection', message: 'Client assistant receiver failed (RangeError)' },
    ],
  ])('%s: wait fails, exactly one error, nothing pending', async (_name, misbehave, expected) => {
    const { connector, peer, emitted } = await services.connected()
    connector.observe(created('d1'))
    await until(() => peer.forwarded().length === 1)
    const waiting = connector.wait()
    misbehave(peer)
    const failure = await rejectionOf(waiting)
    expect(failure).toMatchObject({ message: expected.message, code: expected.code, stage: CONNECTOR_STAGE })
    expect(connector.pending).toBe(0)
    expect(errorsIn(emitted)).toEqual([{ type: 'error', error: expected }])
    // Later waiters get the same failure; nothing of the peer's text anywhere.
    await expect(connector.wait()).rejects.toBe(failure)
    expect(JSON.stringify(emitted)).not.toContain(PEER_SECRET)
    expect(failure.message).not.toContain(PEER_SECRET)
    await peer.closed
    await connector.close()
    expect(errorsIn(emitted)).toHaveLength(1)
  })

  it('expected close with work still pending is incomplete', async () => {
    const { connector, peer, emitted } = await services.connected()
    connector.observe(created('d1'))
    connector.observe(liveClosed())
    await until(() => peer.forwarded().length === 2)
    peer.send({ type: 'session.closed' })
    const failure = await rejectionOf(connector.wait())
    expect(failure.message).toBe('Client assistant closed with unfinished delegations')
    expect(errorsIn(emitted)).toEqual([
      {
        type: 'error',
        error: {
          code: 'client_assistant_incomplete',
          message: 'Client assistant closed with unfinished delegations',
        },
      },
    ])
  })

  it('an expected shutdown with nothing pending emits nothing', async () => {
    const { connector, peer, emitted } = await services.connected()
    connector.observe(created('d1'))
    peer.answer('d1', 'Done.')
    await connector.wait()
    connector.observe(liveClosed())
    await until(() => peer.forwarded().length === 2)
    peer.send({ type: 'session.closed' })
    peer.socket.close(1000)
    await peer.closed
    await connector.wait()
    await connector.close()
    expect(errorsIn(emitted)).toEqual([])
  })

  it('a failed forward fails observe and wait without the underlying text', async () => {
    const { connector, peer, emitted } = await services.connected()
    peer.socket.terminate()
    await peer.closed
    // The close may or may not have been read yet: either way exactly one failure, no peer text.
    let thrown: unknown = null
    try {
      connector.observe(created('d1'))
    } catch (error) {
      thrown = error
    }
    const failure = await rejectionOf(connector.wait())
    if (thrown !== null) expect(thrown).toBe(failure)
    expect([
      'Client assistant send failed (ClientAssistantSocketClosedError)',
      CONNECTOR_MESSAGES.unexpectedEof,
    ]).toContain(failure.message)
    expect(errorsIn(emitted)).toHaveLength(1)
  })

  it('a receiver cancelled before it ran fails waiters with "cancelled" and emits nothing', async () => {
    const cancel = new AbortController()
    cancel.abort()
    const service = await services.start()
    const { connector, emitted } = services.connector(service, { signal: cancel.signal })
    await expect(connector.wait()).rejects.toThrow('Client assistant receiver was cancelled')
    await expect(connector.start()).rejects.toThrow()
    expect(service.upgrades).toEqual([])
    expect(emitted).toEqual([])
  })

  it('a receiver cancelled while work is pending abandons it without an event', async () => {
    const cancel = new AbortController()
    const { connector, emitted } = await services.connected({}, { signal: cancel.signal })
    connector.observe(created('d1'))
    const waiting = connector.wait()
    cancel.abort()
    await expect(waiting).rejects.toThrow('Client assistant receiver was cancelled')
    expect(connector.pending).toBe(0)
    expect(emitted).toEqual([])
  })
})

describe('close', () => {
  it('concurrent double close: waiters fail, nothing sent to Live or the service, socket closed once', async () => {
    const { connector, peer, live, emitted } = await services.connected()
    connector.observe(created('d1'))
    await until(() => peer.forwarded().length === 1)
    const waiting = connector.wait()
    const framesBefore = peer.received.length
    await Promise.all([connector.close(), connector.close()])
    await expect(waiting).rejects.toThrow('Client assistant closed before delegated work completed')
    expect(await peer.closed).toBe(1000)
    expect(peer.received).toHaveLength(framesBefore)
    expect(live).toEqual([])
    expect(emitted).toEqual([])
    expect(() => connector.observe(created('d2'))).toThrow('Delegation controller is closed')
    await expect(connector.wait()).rejects.toThrow('closed before delegated work completed')
  })

  it('close during receive, with nothing pending, emits nothing and resolves waiters', async () => {
    const { connector, peer, emitted } = await services.connected()
    peer.send(
      assistantEvent({ type: 'client_delegation.context.assembled', round: 1, input_item_count: 1 }, 'x'),
    )
    await connector.close()
    await connector.wait()
    expect(errorsIn(emitted)).toEqual([])
  })
})

type Peer = ScriptedPeer

describe('Live and the relayed commentary', () => {
  it('records whether Live accepted or refused each relayed chunk', async () => {
    const { connector, peer, emitted } = await services.connected()
    connector.observe(created('d1'))
    peer.send(liveSend('d1', 'First part.', 'event_a'))
    peer.send(liveSend('d1', 'Second part.', 'event_b'))
    await until(() => connector.commentary().length === 2)
    connector.observe({
      type: 'session.commentary.appended',
      client_event_id: 'event_a',
      start_ms: 10,
      end_ms: 20,
    })
    connector.observe({
      type: 'error',
      error: { code: 'invalid', message: 'no', client_event_id: 'event_b' },
    })
    expect(connector.commentary().map(({ eventId, status, startMs }) => [eventId, status, startMs])).toEqual([
      ['event_a', 'accepted', 10],
      ['event_b', 'rejected', null],
    ])
    expect(errorsIn(emitted)).toEqual([])
  })

  it('a Live session that no longer takes commentary fails the connector once', async () => {
    const { connector, peer, emitted } = await services.connected({}, { sendToLive: () => false })
    connector.observe(created('d1'))
    peer.send(liveSend('d1', 'Lost answer.'))
    await expect(connector.wait()).rejects.toThrow('Client assistant receiver failed (LiveRelayError)')
    expect(errorsIn(emitted)).toEqual([
      {
        type: 'error',
        error: {
          code: 'client_assistant_connection',
          message: 'Client assistant receiver failed (LiveRelayError)',
        },
      },
    ])
  })
})
