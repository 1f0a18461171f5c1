// The public GPT-Live session class: its lifecycle (connect, start/started, stream, close) over the SDK's LiveWS.
// The rules it applies live beside it: sent-frames.ts (onSent), open-waits.ts (waitForEvent/reply),
// terminal-state.ts (stages, fatal errors, start failures), audio-append.ts (audio framing) and socket-teardown.ts
// (the closing grace). Their names that callers use are re-exported here so `./session.ts` keeps its public surface.
import { LiveWS } from 'openai/resources/live/ws'
import {
  audioAppendFrame,
  audioAppendProblem,
  audioOfAppendFrame,
  usesTwoByteSamples,
} from './audio-append.ts'
import { type LiveEndpointSettingsInput, resolveLiveEndpoint } from './endpoint.ts'
import { type LiveErrorKind, LiveSessionError, type LiveSessionStage } from './errors.ts'
import { type LiveEventListener, LiveEventLog } from './event-log.ts'
import {
  type ClientEvent,
  describeMalformedServerEvent,
  type ErrorEvent,
  type ReceivedLiveEvent,
  type SendableClientEvent,
  type ServerEvent,
  type SessionConfig,
  type SessionStartedEvent,
  withoutOutputAudio,
} from './events.ts'
import {
  deepEventMessage,
  isOversizedFrameError,
  MAX_SERVER_EVENT_DEPTH,
  MAX_SERVER_FRAME_BYTES,
  oversizedFrameMessage,
} from './frame-limits.ts'
import { nestsDeeperThan } from './json-depth.ts'
import { clientEventIdOf, OpenWaits } from './open-waits.ts'
import type { LiveSessionOutcome } from './outcome.ts'
import {
  type SentClientEvent,
  type SentEventListener,
  SentFrameListeners,
  type SentLiveEvent,
} from './sent-frames.ts'
import { sessionLabelOf, sessionTaps } from './session-taps.ts'
import { SOCKET_CLOSE_GRACE_MS, SocketTeardown } from './socket-teardown.ts'
import {
  closedOutcomeOf,
  FATAL_SERVER_ERROR_CODES,
  type SessionPhase,
  serverErrorEndsSession,
  serverErrorMessage,
  socketErrorKind,
  stageOf,
  startFailureOf,
  unexpectedCloseMessage,
} from './terminal-state.ts'

export { usesTwoByteSamples } from './audio-append.ts'
export type { SentClientEvent, SentEventListener, SentLiveEvent } from './sent-frames.ts'
export { FATAL_SERVER_ERROR_CODES } from './terminal-state.ts'

export interface LiveSessionOptions {
  /** Milliseconds on the caller's timeline; stamps every received event. Defaults to `performance.now()`. */
  clock?: () => number
  /** Aborting is an intentional cancellation: a synthetic local shutdown, never a failure. */
  signal?: AbortSignal
  /** Decides whether an `error` event after `session.started` ends the session. Errors before it always do. */
  isFatalServerError?: (error: ErrorEvent['error']) => boolean
  /** Prefix of generated client `event_id`s. */
  eventIdPrefix?: string
  /**
   * false: the log keeps each output audio delta, once its listeners saw it, as its size only
   * (`ReceivedLiveEvent.outputAudioBytes`). For a session whose listeners take the audio as it arrives and that
   * subscribe before any audio can come. Default true.
   */
  keepOutputAudio?: boolean
}

/**
 * One GPT-Live session over the SDK's `LiveWS`: the start/started handshake, audio out, an ordered stamped event
 * log, client events with `event_id` correlation, and close with `session.closed`. Whatever happens, the session
 * settles exactly one `LiveSessionOutcome`; later problems (a socket error after the close, a repeated close, an
 * abort after the end) are ignored rather than reported twice.
 */
export class LiveSession {
  readonly url: URL
  readonly log: LiveEventLog
  readonly outcome: Promise<LiveSessionOutcome>

  readonly #ws: LiveWS
  readonly #clock: () => number
  readonly #receiveClock: (() => number | undefined) | undefined
  readonly #startTimeoutMs: number
  readonly #closeTimeoutMs: number
  readonly #isFatal: (error: ErrorEvent['error']) => boolean
  /** The `error` event's error when it is the latest server event: a close right after it is explained by it. */
  #lastServerError: ErrorEvent['error'] | undefined
  readonly #eventIdPrefix: string
  readonly #signal: AbortSignal | undefined
  readonly #onAbort = () =>
    this.#settle({ type: 'local_shutdown', synthetic: true, cause: 'aborted', atMs: 0 })

  #phase: SessionPhase = 'idle'
  #socketOpen = false
  #evenAudioBytes = true
  #nextEventId = 0
  #settled: LiveSessionOutcome | undefined
  #resolveOutcome!: (outcome: LiveSessionOutcome) => void
  #started: SessionStartedEvent | undefined
  #startSent: SentLiveEvent | undefined
  #onStarted: (() => void) | undefined
  #timer: NodeJS.Timeout | undefined
  #closeRequestId: string | undefined
  readonly #sentListeners = new SentFrameListeners()
  /** Waits still open; the session's end rejects them all at once in #settle. */
  readonly #openWaits = new OpenWaits()
  readonly #teardown = new SocketTeardown()

  constructor(settings: LiveEndpointSettingsInput, options: LiveSessionOptions = {}) {
    // A recorder or replayer running this scenario (session-taps.ts) sees the session; replay redirects it.
    const tap = sessionTaps.getStore()
    const label = sessionLabelOf(options.eventIdPrefix ?? 'evt_')
    const endpoint = resolveLiveEndpoint(tap?.endpoint?.(settings, label) ?? settings)
    this.#receiveClock = tap?.receiveClock?.(label)
    this.url = endpoint.url
    this.#clock = options.clock ?? (() => performance.now())
    this.log = new LiveEventLog(options.keepOutputAudio === false ? withoutOutputAudio : null)
    this.#startTimeoutMs = endpoint.settings.startTimeoutMs
    this.#closeTimeoutMs = endpoint.settings.closeTimeoutMs
    this.#isFatal = options.isFatalServerError ?? ((error) => FATAL_SERVER_ERROR_CODES.has(error.code))
    this.#eventIdPrefix = options.eventIdPrefix ?? 'evt_'
    this.#signal = options.signal
    this.outcome = new Promise((resolve) => {
      this.#resolveOutcome = resolve
    })
    if (this.#signal?.aborted) throw this.#signal.reason

    // LiveWS dials in its constructor and queues sends until the socket opens.
    this.#ws = new LiveWS(endpoint.client, { maxPayload: MAX_SERVER_FRAME_BYTES })
    this.#ws.socket.on('open', () => {
      this.#socketOpen = true
    })
    // Events arrive inside the socket's data handler: anything thrown from here would reach the process, so a
    // listener's exception (or one of ours) becomes this session's failure instead.
    this.#ws.on('event', (event) => {
      try {
        this.#receive(event)
      } catch (error) {
        const type = typeof event?.type === 'string' ? event.type.slice(0, 64) : 'an event'
        const why = error instanceof Error ? error.message : String(error)
        this.#fail('listener_error', `handling ${type} failed: ${why}`, { cause: error })
      }
    })
    this.#ws.on('raw', () => this.#fail('malformed_event', 'received a frame that is not a JSON text event'))
    this.#ws.on('error', (error) => {
      // Server `error` events arrive here too, already handled by #receive (error.error carries them).
      if (error.error !== undefined) return
      const cause = error.cause ?? error
      if (isOversizedFrameError(error.message, cause)) {
        this.#fail('malformed_event', oversizedFrameMessage(), { cause })
        return
      }
      this.#fail(socketErrorKind(error.message), error.message, { cause })
    })
    this.#ws.on('close', (code, reason) => {
      this.#teardown.markClosed()
      // A server that sends an `error` before it drops the socket said why: the failure keeps its words.
      const serverError = this.#lastServerError
      this.#fail('unexpected_eof', unexpectedCloseMessage(code, reason, this.#phase, serverError), {
        closeCode: code,
        ...(serverError === undefined ? {} : { serverError }),
      })
    })
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true })
    tap?.opened(this, label)
  }

  /** The stage a failure right now would be attributed to. */
  get stage(): LiveSessionStage {
    return stageOf(this.#phase, this.#socketOpen)
  }

  /** The resolved session snapshot from `session.started`, once it arrived. */
  get startedEvent(): SessionStartedEvent | undefined {
    return this.#started
  }

  /**
   * The `session.start` frame as it was sent, once start() sent it. Consumers that can only subscribe to
   * onSent after start() returned (the handshake happens inside whoever opened the session) read it here.
   */
  get startSent(): SentLiveEvent | undefined {
    return this.#startSent
  }

  /** The outcome if the session already ended. */
  get settled(): LiveSessionOutcome | undefined {
    return this.#settled
  }

  /** Sends `session.start` and waits for `session.started` within the start deadline (which includes connecting). */
  async start(config: SessionConfig): Promise<SessionStartedEvent> {
    if (this.#phase !== 'idle') {
      throw this.#misuse(`start() called twice (session is ${this.#phase})`)
    }
    if (this.#settled !== undefined) throw this.#settledError()
    this.#phase = 'starting'
    this.#evenAudioBytes = usesTwoByteSamples(config)
    const started = new Promise<void>((resolve) => {
      this.#onStarted = resolve
    })
    const startEvent: ClientEvent = { type: 'session.start', event_id: this.#newEventId(), session: config }
    this.#startSent = { event: startEvent, ...this.#transmit(startEvent) }
    this.#arm(this.#startTimeoutMs, () =>
      this.#socketOpen
        ? `no session.started within ${this.#startTimeoutMs} ms of session.start`
        : `the connection to ${this.url.host} did not open within ${this.#startTimeoutMs} ms`,
    )
    await Promise.race([started, this.outcome])
    if (this.#started === undefined) throw this.#settledError()
    return this.#started
  }

  /**
   * Sends caller audio (raw bytes in the session's format) as one `session.input_audio.append`.
   * Returns false, sending nothing, once the session is closing or over (a paced stream racing the close).
   */
  appendAudio(audio: Uint8Array): boolean {
    if (this.#settled !== undefined || this.#phase === 'closing' || this.#phase === 'ended') return false
    if (this.#phase !== 'started') throw this.#misuse('audio must not be sent before session.started')
    const problem = audioAppendProblem(audio, this.#evenAudioBytes)
    if (problem !== null) throw this.#misuse(problem)
    // The frame's text goes out as written (the SDK's sendRaw, same admission rules as send): no event object and
    // no JSON.stringify per 20 ms frame. The event is built only for sent-frame listeners, when there are any.
    const frame = audioAppendFrame(audio)
    this.#ws.sendRaw(frame)
    if (this.#sentListeners.listening) {
      this.#sentListeners.notify(
        { type: 'session.input_audio.append', audio: audioOfAppendFrame(frame) },
        { sentAtMs: this.#clock(), seq: this.log.events.length },
      )
    }
    return true
  }

  /**
   * Sends any other client event, giving it an `event_id` when it has none so replies can be matched by
   * `client_event_id`. Returns null, sending nothing, once the session is closing or over.
   */
  send(event: SendableClientEvent): SentClientEvent | null {
    if (this.#settled !== undefined || this.#phase === 'closing' || this.#phase === 'ended') return null
    if (this.#phase !== 'started') throw this.#misuse(`${event.type} must not be sent before session.started`)
    const eventId = event.event_id ?? this.#newEventId()
    const { sentAtMs, seq } = this.#transmit({ ...event, event_id: eventId })
    return { eventId, sentAtMs, seq }
  }

  /**
   * Calls `listener` synchronously after every frame actually sent from now on: `session.start`, each audio
   * append (its base64 included; drop it before keeping the event), `send()`'s events and `session.close`.
   * Frames refused locally (after the close, before the start) are never reported.
   */
  onSent(listener: SentEventListener): () => void {
    return this.#sentListeners.add(listener)
  }

  /** How many waitForEvent/reply waits are still open (each is settled by its match, its deadline or the end). */
  get openWaitCount(): number {
    return this.#openWaits.size
  }

  /** Every received event, in order, from the first; ends after the session's outcome. */
  events(): AsyncGenerator<ReceivedLiveEvent, void, undefined> {
    return this.log.iterate()
  }

  /** Calls `listener` synchronously for every event received from now on. */
  subscribe(listener: LiveEventListener): () => void {
    return this.log.subscribe(listener)
  }

  /**
   * Waits for the server event answering `sent` (its `client_event_id`, or `error.client_event_id`). A missing
   * reply rejects this wait only; it does not end the session.
   */
  reply(sent: SentClientEvent, timeoutMs: number): Promise<ReceivedLiveEvent> {
    return this.waitForEvent((event) => clientEventIdOf(event) === sent.eventId, {
      timeoutMs,
      fromSeq: sent.seq,
      description: `the reply to ${sent.eventId}`,
    })
  }

  /** Resolves with the first event (at or after `fromSeq`) matching `predicate`. */
  waitForEvent(
    predicate: (event: ServerEvent) => boolean,
    options: { timeoutMs: number; fromSeq?: number; description?: string },
  ): Promise<ReceivedLiveEvent> {
    return this.#openWaits.wait(this.log, predicate, options, (message, kind) => this.#error(message, kind))
  }

  /**
   * Sends `session.close` and waits for `session.closed` within the close deadline. Idempotent; never throws:
   * the returned outcome says how the session ended. Before `session.started` no command may be sent, so closing
   * then is a local shutdown.
   */
  async close(): Promise<LiveSessionOutcome> {
    if (this.#settled === undefined && this.#phase !== 'closing') {
      if (this.#phase === 'started') {
        this.#phase = 'closing'
        this.#closeRequestId = this.#newEventId()
        this.#transmit({ type: 'session.close', event_id: this.#closeRequestId })
        this.#arm(
          this.#closeTimeoutMs,
          () => `no session.closed within ${this.#closeTimeoutMs} ms of session.close`,
        )
      } else {
        this.#settle({ type: 'local_shutdown', synthetic: true, cause: 'closed_before_start', atMs: 0 })
      }
    }
    const outcome = await this.outcome
    await this.#socketClosedWithin(SOCKET_CLOSE_GRACE_MS)
    return outcome
  }

  /** Local shutdown without waiting for the provider: synthetic, idempotent, never a failure. */
  async dispose(): Promise<LiveSessionOutcome> {
    this.#settle({ type: 'local_shutdown', synthetic: true, cause: 'disposed', atMs: 0 })
    const outcome = await this.outcome
    await this.#socketClosedWithin(SOCKET_CLOSE_GRACE_MS)
    return outcome
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose()
  }

  #receive(event: ServerEvent): void {
    if (this.#settled !== undefined) return
    // Before anything walks the event (the log's listeners, traces, artifacts recurse through it).
    if (nestsDeeperThan(event, MAX_SERVER_EVENT_DEPTH)) {
      this.#fail('malformed_event', deepEventMessage())
      return
    }
    const problem = describeMalformedServerEvent(event)
    if (problem !== null) {
      this.#fail('malformed_event', `malformed server event: ${problem}`)
      return
    }
    const receivedAtMs = this.#receiveClock?.() ?? this.#clock()
    const received: ReceivedLiveEvent = { seq: this.log.events.length, receivedAtMs, event }
    this.log.append(received)
    // Only an error that was the server's last word explains a close; one the session outlived does not.
    if (event.type !== 'error') this.#lastServerError = undefined
    switch (event.type) {
      case 'session.started':
        if (this.#phase !== 'starting' || this.#started !== undefined) {
          this.#fail('malformed_event', 'session.started arrived without a pending session.start')
          return
        }
        this.#started = event
        this.#phase = 'started'
        this.#disarm()
        this.#onStarted?.()
        return
      case 'session.closed':
        this.#settle(closedOutcomeOf(event, this.#closeRequestId !== undefined, received.receivedAtMs))
        return
      case 'error': {
        this.#lastServerError = event.error
        if (serverErrorEndsSession(this.#phase, event.error, this.#isFatal)) {
          this.#fail('server_error', serverErrorMessage(event.error), { serverError: event.error })
        }
        return
      }
      default:
        return
    }
  }

  #fail(
    kind: LiveErrorKind,
    message: string,
    extra: { cause?: unknown; closeCode?: number; serverError?: ErrorEvent['error'] } = {},
  ): void {
    if (this.#settled !== undefined) return
    const error = new LiveSessionError(message, { stage: this.stage, kind, ...extra })
    this.#settle({ type: 'failed', synthetic: false, error, atMs: 0 })
  }

  /** The single place an outcome is decided; everything after the first call is ignored. */
  #settle(outcome: LiveSessionOutcome): void {
    if (this.#settled !== undefined) return
    const stamped = outcome.type === 'closed' ? outcome : { ...outcome, atMs: this.#clock() }
    this.#settled = stamped
    this.#phase = 'ended'
    this.#disarm()
    this.#signal?.removeEventListener('abort', this.#onAbort)
    this.log.seal()
    this.#resolveOutcome(stamped)
    this.#openWaits.endAll(stamped)
    // After the outcome the socket has no purpose; closing it twice is harmless in LiveWS.
    this.#ws.close()
  }

  /** Every frame leaves through here, so the sent-event listeners see exactly what went out, in order. */
  #transmit(event: ClientEvent): { sentAtMs: number; seq: number } {
    this.#ws.send(event)
    const sent = { sentAtMs: this.#clock(), seq: this.log.events.length }
    this.#sentListeners.notify(event, sent)
    return sent
  }

  #arm(timeoutMs: number, describe: () => string): void {
    this.#disarm()
    this.#timer = setTimeout(() => this.#fail('timeout', describe()), timeoutMs)
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
  }

  #socketClosedWithin(ms: number): Promise<void> {
    return this.#teardown.closedWithin(ms, () => this.#ws.socket.terminate?.())
  }

  #newEventId(): string {
    this.#nextEventId += 1
    return `${this.#eventIdPrefix}${this.#nextEventId}`
  }

  #misuse(message: string): LiveSessionError {
    return this.#error(message, 'misuse')
  }

  /** An error attributed to the stage the session is in now. */
  #error(message: string, kind: LiveErrorKind): LiveSessionError {
    return new LiveSessionError(message, { stage: this.stage, kind })
  }

  /** Why start() cannot succeed: the failure itself, the abort reason, or a local-shutdown error. */
  #settledError(): unknown {
    return startFailureOf(this.#settled, this.#signal)
  }
}
