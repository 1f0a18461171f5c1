import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import { paceFrames } from '../audio/pacing.ts'
import { type OfflineSessionScript, startOfflineLiveServer } from '../testing/live-server/index.ts'
import { testBehaviour } from '../testing/live-server/test-support.ts'
import { LiveSessionError } from './errors.ts'
import type { SendableClientEvent, SessionConfig } from './events.ts'
import type { LiveSessionFailed, LiveSessionOutcome } from './outcome.ts'
import { LiveSession, type LiveSessionOptions } from './session.ts'

type OfflineServer = Awaited<ReturnType<typeof startOfflineLiveServer>>

const CONFIG: SessionConfig = {
  model: 'gpt-live-1',
  instructions: 'Answer briefly.',
  audio: { format: { type: 'audio/pcm', rate: 24000 } },
  delegation: { type: 'client' },
}

/** 20 ms of PCM16 silence at 24 kHz. */
const FRAME = new Uint8Array(960)

let server: OfflineServer
let tokenCounter = 0
const opened: LiveSession[] = []

beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterEach(async () => {
  await Promise.all(opened.splice(0).map((session) => session.dispose()))
})
afterAll(async () => {
  await server.close()
})

/** A session against the offline server with its own token and script. */
function offlineSession(
  script: Partial<OfflineSessionScript> = {},
  options: LiveSessionOptions = {},
  settings: { startTimeoutMs?: number; closeTimeoutMs?: number } = {},
): LiveSession {
  tokenCounter += 1
  const token = `session-token-${tokenCounter}`
  server.registerSession(token, { hearing: [], ...script })
  const session = new LiveSession(
    { apiKey: token, baseURL: server.baseURL, allowInsecureLoopback: true, ...settings },
    options,
  )
  opened.push(session)
  return session
}

/** Asserts a failed outcome with its stage and kind, and that the message names the stage. */
function expectFailure(outcome: LiveSessionOutcome, stage: string, kind: string): LiveSessionError {
  expect(outcome.type).toBe('failed')
  const { error } = outcome as LiveSessionFailed
  expect(error).toBeInstanceOf(LiveSessionError)
  expect({ stage: error.stage, kind: error.kind }).toEqual({ stage, kind })
  expect(error.message).toContain(`GPT-Live session ${stage}:`)
  return error
}

describe('LiveSession over LiveWS: the normal path', () => {
  it('starts, streams audio, and ends with the provider session.closed (reason and usage kept)', async () => {
    let tick = 0
    const session = offlineSession({}, { clock: () => ++tick })
    const started = await session.start(CONFIG)
    expect(started.session.id).toMatch(/^live_/)
    for (let i = 0; i < 50; i += 1) expect(session.appendAudio(FRAME)).toBe(true)
    const outcome = await session.close()
    expect(outcome).toMatchObject({
      type: 'closed',
      synthetic: false,
      reason: 'close_requested',
      requested: true,
    })
    if (outcome.type !== 'closed') throw new Error('unreachable')
    expect(outcome.usageSeconds).toBe(outcome.event.usage.seconds)
    expect(outcome.usageSeconds).toBeGreaterThanOrEqual(1)
    expect(await session.outcome).toBe(outcome)

    const received = []
    for await (const item of session.events()) received.push(item)
    expect(received.map((item) => item.event.type)).toEqual(['session.started', 'session.closed'])
    expect(received.map((item) => item.seq)).toEqual([0, 1])
    const stamps = received.map((item) => item.receivedAtMs)
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b))
    expect(new Set(stamps).size).toBe(stamps.length)
  })

  it('paced audio drives the server clock: the heard utterance comes back as timed transcript deltas', async () => {
    const session = offlineSession({ hearing: [{ text: 'Is Thursday free', startMs: 200, endMs: 800 }] })
    await session.start(CONFIG)
    const oneSecond = Array.from({ length: 50 }, () => FRAME)
    const report = await paceFrames(oneSecond, (frame) => session.appendAudio(frame), { realTime: false })
    expect(report.ended).toBe('completed')
    expect(report.frames.at(-1)?.scheduledMs).toBe(980)
    const lastWord = await session.waitForEvent(
      (event) => event.type === 'session.input_transcript.delta' && event.end_ms === 800,
      { timeoutMs: 5_000, description: 'the transcript of the last heard word' },
    )
    expect(lastWord.event.type).toBe('session.input_transcript.delta')
    const deltas = session.log.events.flatMap((item) =>
      item.event.type === 'session.input_transcript.delta' ? [item.event] : [],
    )
    expect(deltas.map((delta) => delta.delta).join('')).toContain('Thursday')
    expect(deltas[0]?.start_ms).toBeGreaterThanOrEqual(200)
    const outcome = await session.close()
    expect(outcome.type).toBe('closed')
    // Paced frames stop being accepted once the session is closing: the pacer is told to stop, not failed.
    const after = await paceFrames([FRAME], (frame) => session.appendAudio(frame), { realTime: false })
    expect(after.ended).toBe('consumer_stopped')
  })

  it('refuses audio before session.started and odd PCM16 byte counts', async () => {
    const session = offlineSession()
    expect(() => session.appendAudio(FRAME)).toThrow(/before session.started/)
    expect(() => session.send({ type: 'session.input_audio.mute' })).toThrow(/before session.started/)
    await session.start(CONFIG)
    expect(() => session.appendAudio(new Uint8Array(3))).toThrow(/even byte count, got 3/)
    expect(() => session.appendAudio(new Uint8Array(0))).toThrow(/must not be empty/)
    await expect(session.start(CONFIG)).rejects.toThrow(/start\(\) called twice/)
    expect((await session.close()).type).toBe('closed')
  })

  it('gives client events an event_id and finds the reply by client_event_id', async () => {
    const session = offlineSession()
    await session.start(CONFIG)
    const sent = session.send({ type: 'session.update', session: { delegation: { type: 'client' } } })
    expect(sent?.eventId).toMatch(/^evt_\d+$/)
    if (sent === null) throw new Error('unreachable')
    const reply = await session.reply(sent, 5_000)
    expect(reply.event).toMatchObject({ type: 'session.updated', client_event_id: sent.eventId })
    const own = session.send({
      type: 'session.update',
      event_id: 'mine-1',
      session: { delegation: { type: 'client' } },
    })
    expect(own?.eventId).toBe('mine-1')
  })

  it('a delayed acknowledgement times out only the wait, not the session', async () => {
    const session = offlineSession({ faults: { ackDelayMs: 400 } })
    await session.start(CONFIG)
    const sent = session.send({
      type: 'session.commentary.append',
      delegation_id: null,
      content: 'Be brief.',
    })
    if (sent === null) throw new Error('unreachable')
    // The server acknowledges on its received-audio clock; with no audio yet the ack cannot come.
    await expect(session.reply(sent, 100)).rejects.toMatchObject({ kind: 'timeout', stage: 'stream' })
    expect(session.settled).toBeUndefined()
    const frames = Array.from({ length: 50 }, () => FRAME)
    await paceFrames(frames, (frame) => session.appendAudio(frame), { realTime: false })
    const ack = await session.reply(sent, 5_000)
    expect(ack.event).toMatchObject({ type: 'session.commentary.appended', client_event_id: sent.eventId })
    expect((await session.close()).type).toBe('closed')
  })

  it('delivers events to listeners and to late iterators in the same order', async () => {
    const session = offlineSession()
    const heard: string[] = []
    session.subscribe((item) => heard.push(item.event.type))
    await session.start(CONFIG)
    await session.close()
    const late: string[] = []
    for await (const item of session.events()) late.push(item.event.type)
    expect(heard).toEqual(late)
    expect(late.at(-1)).toBe('session.closed')
  })
})

describe('LiveSession: sent-frame notices and open waits', () => {
  it('reports every frame actually sent, in order, with its clock time and receive position', async () => {
    let tick = 0
    const session = offlineSession({}, { clock: () => ++tick })
    const sent: Array<{ type: string; sentAtMs: number; seq: number; event: Record<string, unknown> }> = []
    const stop = session.onSent(({ event, sentAtMs, seq }) =>
      sent.push({ type: event.type, sentAtMs, seq, event: event as unknown as Record<string, unknown> }),
    )
    await session.start(CONFIG)
    expect(session.appendAudio(FRAME)).toBe(true)
    const update = session.send({ type: 'session.update', session: { delegation: { type: 'client' } } })
    if (update === null) throw new Error('unreachable')
    await session.reply(update, 5_000)
    await session.close()
    expect(sent.map((item) => item.type)).toEqual([
      'session.start',
      'session.input_audio.append',
      'session.update',
      'session.close',
    ])
    expect(sent[0]?.event.session).toEqual(CONFIG)
    expect(sent[0]?.seq).toBe(0)
    expect(session.startSent).toMatchObject({ event: sent[0]?.event, sentAtMs: sent[0]?.sentAtMs, seq: 0 })
    // The append went out after session.started was received, so replies to it come after position 1.
    expect(sent[1]?.seq).toBe(1)
    expect(sent[1]?.event.audio).toBe(Buffer.from(FRAME).toString('base64'))
    expect(sent[2]).toMatchObject({ sentAtMs: update.sentAtMs, seq: update.seq })
    expect(sent[2]?.event.event_id).toBe(update.eventId)
    const times = sent.map((item) => item.sentAtMs)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    // Frames refused after the close are not reported, and an unsubscribed listener hears nothing more.
    expect(session.appendAudio(FRAME)).toBe(false)
    expect(sent).toHaveLength(4)
    stop()
  })

  it('an unsubscribed listener is not called, and frames refused before the start are not reported', async () => {
    const session = offlineSession()
    const sent: string[] = []
    const stop = session.onSent(({ event }) => sent.push(event.type))
    expect(() => session.appendAudio(FRAME)).toThrow(/before session.started/)
    await session.start(CONFIG)
    stop()
    session.appendAudio(FRAME)
    await session.close()
    expect(sent).toEqual(['session.start'])
  })

  it('a wait that resolves or times out leaves nothing attached to the session', async () => {
    const session = offlineSession()
    await session.start(CONFIG)
    for (let i = 0; i < 20; i += 1) {
      const sent = session.send({ type: 'session.input_audio.unmute' })
      if (sent === null) throw new Error('unreachable')
      await session.reply(sent, 5_000)
    }
    await expect(
      session.waitForEvent((event) => event.type === 'session.output_audio.delta', { timeoutMs: 20 }),
    ).rejects.toMatchObject({ kind: 'timeout' })
    expect(session.openWaitCount).toBe(0)
    expect((await session.close()).type).toBe('closed')
  })

  it('the end of the session rejects every wait still open, once, and leaves none behind', async () => {
    const session = offlineSession()
    await session.start(CONFIG)
    const never = (event: { type: string }) => event.type === 'session.thinking.appended'
    const waits = [0, 1, 2].map(() =>
      session.waitForEvent(never, { timeoutMs: 60_000, description: 'thinking' }),
    )
    const settled = waits.map((wait) =>
      wait.then(
        () => 'resolved',
        (error: unknown) => error,
      ),
    )
    expect(session.openWaitCount).toBe(3)
    await session.close()
    expect(session.openWaitCount).toBe(0)
    for (const result of await Promise.all(settled)) {
      expect(result).toMatchObject({ kind: 'ended' })
      expect((result as Error).message).toMatch(/ended \(closed\) while waiting for thinking/)
    }
  })
})

describe('LiveSession: exactly one terminal outcome per fault', () => {
  it('a disconnect mid-stream is one unexpected_eof in stage stream', async () => {
    const session = offlineSession({ faults: { disconnect: { afterEvents: 1 } } })
    await session.start(CONFIG)
    const outcome = await session.outcome
    const error = expectFailure(outcome, 'stream', 'unexpected_eof')
    expect(error.closeCode).toBe(1006)
    expect(await session.close()).toBe(outcome)
    expect(session.appendAudio(FRAME)).toBe(false)
  })

  it('a server that says why before it drops the socket: the unexpected_eof keeps its error', async () => {
    const session = offlineSession({
      hearing: [{ text: 'boom', startMs: 0, endMs: 400 }],
      behaviour: {
        ...testBehaviour,
        directAnswer: () => {
          throw new Error('the behaviour exploded')
        },
      },
    })
    await session.start(CONFIG)
    const oneSecond = Array.from({ length: 50 }, () => FRAME)
    await paceFrames(oneSecond, (frame) => session.appendAudio(frame), { realTime: false })
    const error = expectFailure(await session.outcome, 'stream', 'unexpected_eof')
    expect(error.closeCode).toBe(1011)
    expect(error.serverError?.code).toBe('offline_server_error')
    expect(error.message).toContain(
      'before session.closed after server error offline_server_error: The offline server failed',
    )
    expect(error.message).toContain('the behaviour exploded')
  })

  it('an earlier error the session outlived does not explain a later drop', async () => {
    const session = offlineSession({
      hearing: [{ text: 'hello there', startMs: 0, endMs: 400 }],
      faults: { disconnect: { atAudioMs: 600 } },
    })
    await session.start(CONFIG)
    // A second session.start (the types keep it out of send, hence the cast) is refused without ending the session
    // (session_already_started), and the call goes on.
    session.send({ type: 'session.start', session: CONFIG } as unknown as SendableClientEvent)
    const oneSecond = Array.from({ length: 50 }, () => FRAME)
    await paceFrames(oneSecond, (frame) => session.appendAudio(frame), { realTime: false })
    const error = expectFailure(await session.outcome, 'stream', 'unexpected_eof')
    expect(session.log.events.map((received) => received.event.type)).toContain('error')
    expect(error.serverError).toBeUndefined()
    expect(error.message).not.toContain('session_already_started')
  })

  it.each([
    ['truncated JSON', '{"type": "session.'],
    ['an object without a type', '{"kind": "session.closed"}'],
    ['a JSON array', '[1, 2]'],
    ['a reserved type', '{"type": "close"}'],
  ])('a malformed frame (%s) is one malformed_event in stage stream', async (_name, payload) => {
    const session = offlineSession({ faults: { malformedFrame: { afterEvents: 1, payload } } })
    await session.start(CONFIG)
    expectFailure(await session.outcome, 'stream', 'malformed_event')
  })

  it('an event with a known type but the wrong shape is malformed', async () => {
    const session = offlineSession({
      faults: { malformedFrame: { afterEvents: 1, payload: '{"type":"session.closed","reason":"expired"}' } },
    })
    await session.start(CONFIG)
    const error = expectFailure(await session.outcome, 'stream', 'malformed_event')
    expect(error.message).toContain('usage must be an object')
  })

  it('an ordinary server error event is delivered and the session goes on', async () => {
    const session = offlineSession({ faults: { errorEvent: { afterEvents: 1 } } })
    await session.start(CONFIG)
    const error = await session.waitForEvent((event) => event.type === 'error', { timeoutMs: 5_000 })
    expect(error.event.type).toBe('error')
    expect(session.settled).toBeUndefined()
    expect((await session.close()).type).toBe('closed')
  })

  it('a fatal server error event ends the session once, in stage stream', async () => {
    const session = offlineSession({ faults: { errorEvent: { afterEvents: 1, code: 'invalid_api_key' } } })
    await session.start(CONFIG)
    const error = expectFailure(await session.outcome, 'stream', 'server_error')
    expect(error.serverError?.code).toBe('invalid_api_key')
  })

  it('a server error answering session.start (strict config) fails start() in stage start', async () => {
    const session = offlineSession()
    const invalid = { ...CONFIG, surprise_field: true } as SessionConfig
    const error = await session.start(invalid).then(
      () => null,
      (failure: unknown) => failure,
    )
    expect(error).toBeInstanceOf(LiveSessionError)
    expect(error).toMatchObject({
      stage: 'start',
      kind: 'server_error',
      serverError: { code: 'unknown_parameter' },
    })
    expect(await session.outcome).toMatchObject({ type: 'failed', error })
  })

  it('a missing session.closed is one timeout in stage close', async () => {
    const session = offlineSession({ faults: { withholdSessionClosed: true } }, {}, { closeTimeoutMs: 200 })
    await session.start(CONFIG)
    const outcome = await session.close()
    const error = expectFailure(outcome, 'close', 'timeout')
    expect(error.message).toContain('no session.closed within 200 ms')
    expect(await session.close()).toBe(outcome)
    expect(await session.dispose()).toBe(outcome)
    expect(session.settled).toBe(outcome)
  })

  it('a server-side session.closed (expired) ends normally with its reason, not requested', async () => {
    const session = offlineSession({ faults: { serverClose: { afterEvents: 1, reason: 'expired' } } })
    await session.start(CONFIG)
    expect(await session.outcome).toMatchObject({ type: 'closed', reason: 'expired', requested: false })
  })

  it('connection_lost is provider finalization too', async () => {
    const session = offlineSession({ faults: { serverClose: { afterEvents: 1, reason: 'connection_lost' } } })
    await session.start(CONFIG)
    expect(await session.outcome).toMatchObject({
      type: 'closed',
      synthetic: false,
      reason: 'connection_lost',
    })
  })
})

describe('LiveSession: after a fault, cleanup and cancellation add nothing', () => {
  it.each([
    ['a disconnect', { disconnect: { afterEvents: 1 } }],
    ['a malformed frame', { malformedFrame: { afterEvents: 1 } }],
    ['a fatal error event', { errorEvent: { afterEvents: 1, code: 'invalid_api_key' } }],
    ['an expired close', { serverClose: { afterEvents: 1, reason: 'expired' } }],
    ['a connection_lost close', { serverClose: { afterEvents: 1, reason: 'connection_lost' } }],
  ] as const)(
    '%s: one outcome; close, abort and dispose afterwards return it unchanged',
    async (_name, faults) => {
      const controller = new AbortController()
      const session = offlineSession({ faults }, { signal: controller.signal })
      await session.start(CONFIG)
      const outcome = await session.outcome
      // close() also waits for the socket itself, so the transport's own close event has been seen by now.
      expect(await session.close()).toBe(outcome)
      controller.abort(new Error('cancelled after the end'))
      expect(await session.dispose()).toBe(outcome)
      expect(await session.close()).toBe(outcome)
      expect(session.settled).toBe(outcome)
      expect(session.log.sealed).toBe(true)
      const closedEvents = session.log.events.filter((item) => item.event.type === 'session.closed')
      expect(closedEvents).toHaveLength(outcome.type === 'closed' ? 1 : 0)
    },
  )
})

describe('LiveSession: connect and start failures', () => {
  it('a refused connection is one transport failure in stage connect', async () => {
    const probe = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise((resolve) => probe.once('listening', resolve))
    const { port } = probe.address() as AddressInfo
    await new Promise((resolve) => probe.close(resolve))
    const session = new LiveSession({
      apiKey: 'k',
      baseURL: `http://127.0.0.1:${port}/v1`,
      allowInsecureLoopback: true,
    })
    opened.push(session)
    await expect(session.start(CONFIG)).rejects.toMatchObject({ stage: 'connect', kind: 'transport' })
    expectFailure(await session.outcome, 'connect', 'transport')
  })

  it('an unknown bearer token is refused at connect', async () => {
    const session = new LiveSession({
      apiKey: 'never-registered',
      baseURL: server.baseURL,
      allowInsecureLoopback: true,
    })
    opened.push(session)
    await expect(session.start(CONFIG)).rejects.toMatchObject({ stage: 'connect', kind: 'transport' })
  })

  it('a server that never answers session.start is one timeout in stage start', async () => {
    const session = offlineSession({ faults: { withholdSessionStarted: true } }, {}, { startTimeoutMs: 200 })
    await expect(session.start(CONFIG)).rejects.toThrow(
      /GPT-Live session start: no session.started within 200 ms/,
    )
    const outcome = await session.outcome
    expectFailure(outcome, 'start', 'timeout')
    expect(await session.dispose()).toBe(outcome)
    expect(await session.close()).toBe(outcome)
  })
})

describe('LiveSession: local shutdown and cancellation', () => {
  it('an abort is a synthetic local shutdown, not a failure, and start() rejects with the abort reason', async () => {
    const controller = new AbortController()
    const session = offlineSession({}, { signal: controller.signal })
    const starting = session.start(CONFIG)
    controller.abort(new Error('test cancelled'))
    await expect(starting).rejects.toThrow('test cancelled')
    expect(await session.outcome).toMatchObject({ type: 'local_shutdown', synthetic: true, cause: 'aborted' })
  })

  it('aborting after the provider closed changes nothing', async () => {
    const controller = new AbortController()
    const session = offlineSession({}, { signal: controller.signal })
    await session.start(CONFIG)
    const outcome = await session.close()
    controller.abort()
    expect(await session.dispose()).toBe(outcome)
    expect(outcome.type).toBe('closed')
  })

  it('dispose mid-stream is synthetic and idempotent; send and audio are quietly refused afterwards', async () => {
    const session = offlineSession()
    await session.start(CONFIG)
    const first = await session.dispose()
    expect(first).toMatchObject({ type: 'local_shutdown', synthetic: true, cause: 'disposed' })
    expect(await session.dispose()).toBe(first)
    expect(await session.close()).toBe(first)
    expect(session.settled).toBe(first)
    expect(session.appendAudio(FRAME)).toBe(false)
    expect(session.send({ type: 'session.input_audio.mute' })).toBeNull()
  })

  it('close before session.started is a local shutdown (no command may precede started)', async () => {
    const session = offlineSession()
    expect(await session.close()).toMatchObject({ type: 'local_shutdown', cause: 'closed_before_start' })
  })

  it('an already-aborted signal refuses to connect', () => {
    const controller = new AbortController()
    controller.abort(new Error('already cancelled'))
    expect(() => offlineSession({}, { signal: controller.signal })).toThrow('already cancelled')
  })
})
