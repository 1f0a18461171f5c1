// The remote client-delegation connector: the evaluator's side of contract §3–§5. It is fed every GPT-Live
// event and forwards only the four the service needs (validated, client delegation ids once each), relays the
// service's `live.send` commentary into GPT-Live, feeds the tool observer from the service's tool evidence,
// and re-emits the service's observations into the evaluator stream. A delegation is pending from the moment
// it is seen until its valid completion, so pending covers publication; every failure is reported exactly once
// (one `error` event with the §5 code, a retained error for every waiter), and close() releases everything.
//
//   const connector = new RemoteClientConnector({ endpoint, token, configure, sendToLive, emit, observer })
//   await connector.start()        // endpoint and token checks, dial, configure, ready
//   session.subscribe(({ event }) => connector.observe(event))
//   await connector.wait()         // nothing pending; rejects with the retained failure
//   await connector.close()        // idempotent
import type { CommentaryAppendEvent } from 'openai/resources/live/live'
import type { RawData, WebSocket } from 'ws'
import type { ObservationEvent } from '../../client/backend/application-backend.ts'
import type { CommentaryRecord } from '../../client/delegation/client-delegation-controller.ts'
import { HEARTBEAT_INTERVAL_MS, startHeartbeat } from '../../client/service/heartbeat.ts'
import {
  assistantEventSchema,
  type ForwardedLiveEvent,
  forwardedLiveEventSchema,
  frameObject,
  frameText,
  isForwardedLiveEventType,
  liveSendSchema,
  type SessionConfigure,
  type SessionReady,
} from '../../client/service/protocol/index.ts'
import { checkAssistantToken } from '../../client/service/token.ts'
import type { DelegationWaitOptions } from '../../delegation-lifecycle.ts'
import type { JsonObject } from '../../offline-behaviour.ts'
import { isJsonObject } from '../../runtime/json.ts'
import { type ConnectOptions, connectToService } from './connect.ts'
import { DelegationLedger } from './delegation-ledger.ts'
import { dialableEndpoint } from './endpoint.ts'
import {
  ClientAssistantError,
  ClientAssistantProtocolError,
  ClientAssistantSocketClosedError,
  CONNECTOR_MESSAGES,
  type ConnectorFailureCode,
  className,
  LiveRelayError,
} from './errors.ts'
import type { RemoteToolObserver } from './tool-observer.ts'

/** How long close() waits for the socket's closing handshake before cutting it. */
const SOCKET_CLOSE_GRACE_MS = 1_000

export interface RemoteConnectorOptions {
  /** OPENAI_CLIENT_ASSISTANT_ENDPOINT as written; checked before any socket. */
  endpoint: string
  /** OPENAI_CLIENT_ASSISTANT_TOKEN; checked against the token rules before any socket. */
  token: string | undefined
  allowInsecureLoopback: boolean
  /** The OpenAI keys the token must not equal. */
  openAiKeys: { OPENAI_API_KEY?: string | undefined; OPENAI_RESPONSES_API_KEY?: string | undefined }
  /**
   * Builds the whole `session.configure` (authorized startup history; scenario state only when opted in).
   * Called once by start(), so a history the contract cannot carry fails the start, not the caller.
   */
  configure: () => SessionConfigure
  /** Sends one commentary event to GPT-Live; false (or a throw) when Live no longer accepts commands. */
  sendToLive: (event: CommentaryAppendEvent) => boolean
  /** The evaluator stream: the service's observations, completions, and one `error` per failure. */
  emit: (event: ObservationEvent) => void
  observer: RemoteToolObserver
  /** Aborting cancels the receiver (not a close): pending work is abandoned, no event is emitted. */
  signal?: AbortSignal
  heartbeatIntervalMs?: number
  /** Deadlines and retry bounds of the handshake (tests shorten them). */
  connection?: Pick<
    ConnectOptions,
    | 'connectTimeoutMs'
    | 'readyTimeoutMs'
    | 'maxInboundFrameBytes'
    | 'connectionLimitAttempts'
    | 'connectionLimitFirstPauseMs'
  >
}

export class RemoteClientConnector {
  readonly #options: RemoteConnectorOptions
  readonly #abort = new AbortController()
  #socket: WebSocket | null = null
  #stopHeartbeat: () => void = () => {}
  #starting: Promise<SessionReady> | null = null
  #ready = false
  /** Forwarded events observed before the service was ready, in order. */
  #queue: ForwardedLiveEvent[] = []
  readonly #ledger = new DelegationLedger()
  readonly #commentary = new Map<string, CommentaryRecord>()
  #accepting = true
  #closeExpected = false
  /** The receiver stopped: after a failure, a cancel, or the expected end. */
  #stopped = false
  #closing: Promise<void> | null = null
  #socketReleased: Promise<void> | null = null

  constructor(options: RemoteConnectorOptions) {
    this.#options = options
    const { signal } = options
    if (signal?.aborted) this.#cancelReceiver()
    else signal?.addEventListener('abort', () => this.#cancelReceiver(), { once: true })
  }

  /** Delegations seen and not yet validly completed. */
  get pending(): number {
    return this.#ledger.pending
  }

  /** Every client delegation id seen, in order, each once. */
  get delegationIds(): string[] {
    return this.#ledger.ids
  }

  /** Whether this delegation was seen and is not completed yet. */
  isPending(delegationId: string): boolean {
    return this.#ledger.isPending(delegationId)
  }

  /** The first retained failure, or null. */
  get failure(): ClientAssistantError | null {
    return this.#ledger.failure
  }

  /** Every commentary chunk relayed to Live, with Live's acknowledgement. */
  commentary(): CommentaryRecord[] {
    return [...this.#commentary.values()].map((record) => ({ ...record }))
  }

  /**
   * Checks the endpoint and the token (each throws its own message, no socket opened), then dials, configures
   * and waits for ready. Idempotent. Any later failure is a ClientAssistantError naming no detail.
   */
  start(): Promise<SessionReady> {
    this.#starting ??= this.#connect()
    return this.#starting
  }

  async #connect(): Promise<SessionReady> {
    try {
      const url = dialableEndpoint(this.#options.endpoint, {
        allowInsecureLoopback: this.#options.allowInsecureLoopback,
      })
      const token = checkAssistantToken(this.#options.token, this.#options.openAiKeys)
      if (this.#closing !== null || this.#stopped) {
        throw new ClientAssistantError(
          this.#ledger.failure?.message ?? CONNECTOR_MESSAGES.controllerClosed,
          null,
        )
      }
      const { socket, ready } = await connectToService({
        ...this.#options.connection,
        url,
        token,
        configure: this.#options.configure(),
        signal: this.#abort.signal,
      })
      if (this.#closing !== null || this.#stopped) {
        socket.terminate()
        throw new ClientAssistantError(
          this.#ledger.failure?.message ?? CONNECTOR_MESSAGES.controllerClosed,
          null,
        )
      }
      this.#adopt(socket)
      this.#options.observer.started(ready.application_state)
      this.#ready = true
      const queued = this.#queue
      this.#queue = []
      for (const event of queued) this.#forward(event)
      return ready
    } catch (error) {
      const failure =
        error instanceof ClientAssistantError
          ? error
          : new ClientAssistantError((error as Error).message, null)
      this.#retain(failure)
      throw error
    }
  }

  #adopt(socket: WebSocket): void {
    this.#socket = socket
    socket.on('message', this.#onMessage)
    socket.on('close', this.#onClose)
    socket.on('error', (error) => this.#fail('client_assistant_connection', receiverFailed(error)))
    this.#stopHeartbeat = startHeartbeat(socket, this.#options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS)
  }

  readonly #onMessage = (data: RawData, isBinary: boolean) => this.#receive(data, isBinary)
  readonly #onClose = () => this.#socketEnded()

  /**
   * Feeds one GPT-Live event. Only the four forwarded types go on, validated; a client delegation id goes once
   * and is pending before it is sent. Throws when the controller is closed, when a forwarded event is invalid,
   * and when forwarding fails; the failure is also retained and reported once.
   */
  observe(event: unknown): void {
    if (this.#closing !== null) throw new ClientAssistantError(CONNECTOR_MESSAGES.controllerClosed, null)
    if (!isJsonObject(event)) return
    this.#noteCommentaryAcknowledgement(event)
    if (!this.#accepting || !isForwardedLiveEventType(event.type)) return
    const parsed = forwardedLiveEventSchema.safeParse(event)
    if (!parsed.success) {
      throw this.#fail('client_assistant_protocol_error', receiverFailed(new ClientAssistantProtocolError()))
    }
    const forwarded = parsed.data
    if (forwarded.type === 'session.delegation.created') {
      if (!this.#ledger.accept(forwarded.delegation.id)) return
    } else if (forwarded.type === 'session.closed') {
      this.#closeExpected = true
      this.#accepting = false
    }
    if (this.#ready) this.#forward(forwarded)
    else this.#queue.push(forwarded)
  }

  /** Resolves once nothing is pending; rejects with the retained failure. Cancelling it keeps the work. */
  wait(options: DelegationWaitOptions = {}): Promise<void> {
    return this.#ledger.wait(options)
  }

  /**
   * Stops acceptance, stops the receiver, closes the socket once, then abandons pending work ("closed before
   * delegated work completed"). Emits nothing and sends no `session.closed`. Idempotent; never rejects.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown()
    return this.#closing
  }

  async #shutDown(): Promise<void> {
    this.#accepting = false
    this.#abort.abort()
    this.#stopReceiver()
    await this.#releaseSocket()
    await this.#starting?.catch(() => {})
    if (this.#ledger.pending > 0) {
      this.#retain(new ClientAssistantError(CONNECTOR_MESSAGES.closedWithWork, null))
    }
  }

  #forward(event: ForwardedLiveEvent): void {
    const socket = this.#socket
    try {
      if (socket === null || socket.readyState !== socket.OPEN) {
        throw new ClientAssistantSocketClosedError('the service socket is not open')
      }
      socket.send(JSON.stringify({ type: 'live.event', event }), (error) => {
        if (error) this.#fail('client_assistant_connection', CONNECTOR_MESSAGES.sendFailed(className(error)))
      })
    } catch (error) {
      throw this.#fail('client_assistant_connection', CONNECTOR_MESSAGES.sendFailed(className(error)))
    }
  }

  /** One frame from the service, handled to the end before the next one is read. */
  #receive(data: RawData, isBinary: boolean): void {
    if (this.#stopped) return
    if (isBinary) return
    try {
      this.#handle(parseFrame(frameText(data)))
    } catch (error) {
      this.#fail(
        error instanceof ClientAssistantProtocolError
          ? 'client_assistant_protocol_error'
          : 'client_assistant_connection',
        receiverFailed(error),
      )
    }
  }

  #handle(message: JsonObject): void {
    switch (message.type) {
      case 'assistant.event':
        this.#assistantEvent(message)
        return
      case 'live.send':
        this.#relay(message)
        return
      case 'session.closed':
        if (!this.#closeExpected) throw new ClientAssistantProtocolError('unexpected session.closed')
        if (this.#ledger.pending > 0) {
          this.#fail('client_assistant_incomplete', CONNECTOR_MESSAGES.incomplete)
        } else this.#endQuietly()
        return
      case 'error':
        this.#fail('client_assistant_error', CONNECTOR_MESSAGES.sessionFailed)
        return
      default:
        throw new ClientAssistantProtocolError('unknown message type')
    }
  }

  #assistantEvent(message: JsonObject): void {
    // A nested error is the service's report of failed backend work, whatever else it carries.
    if (isJsonObject(message.event) && message.event.type === 'error') {
      this.#fail('client_assistant_error', CONNECTOR_MESSAGES.backendFailed)
      return
    }
    const parsed = assistantEventSchema.safeParse(message)
    if (!parsed.success) throw new ClientAssistantProtocolError('invalid assistant.event')
    const inner = parsed.data.event as ObservationEvent
    if (inner.type === 'client_delegation.completed') {
      this.#complete(inner)
      return
    }
    this.#options.observer.observe(inner)
    this.#options.emit(inner)
  }

  /** §5 completion rules: unknown is an error, a repeat is ignored, a completion before any result an error. */
  #complete(event: ObservationEvent): void {
    const id = event.delegation_id
    if (typeof id !== 'string' || !this.#ledger.seen(id)) {
      throw new ClientAssistantProtocolError('Client assistant completed an unknown delegation')
    }
    if (!this.#ledger.isPending(id)) return
    if (!this.#ledger.hasRelayed(id)) {
      throw new ClientAssistantProtocolError(
        'Client assistant completed a delegation before publishing its result',
      )
    }
    this.#options.emit(event)
    this.#ledger.complete(id)
  }

  /** A commentary chunk for a pending delegation, relayed to Live unchanged before the next frame is read. */
  #relay(message: JsonObject): void {
    const parsed = liveSendSchema.safeParse(message)
    if (!parsed.success || !this.#ledger.isPending(parsed.data.event.delegation_id)) {
      throw new ClientAssistantProtocolError('Client assistant returned an uncorrelated delegation result')
    }
    const { event } = parsed.data
    this.#commentary.set(event.event_id, {
      delegationId: event.delegation_id,
      eventId: event.event_id,
      content: event.content,
      status: 'sent',
      startMs: null,
      endMs: null,
    })
    if (!this.#options.sendToLive(event)) throw new LiveRelayError('Live no longer accepts commentary')
    this.#ledger.relayed(event.delegation_id)
  }

  /** Live's answer to a relayed chunk: accepted (with its placement) or refused. */
  #noteCommentaryAcknowledgement(event: JsonObject): void {
    if (event.type === 'session.commentary.appended') {
      const record = this.#commentaryFor(event.client_event_id)
      if (record === undefined) return
      record.status = 'accepted'
      record.startMs = typeof event.start_ms === 'number' ? event.start_ms : null
      record.endMs = typeof event.end_ms === 'number' ? event.end_ms : null
    } else if (event.type === 'error') {
      const nested = isJsonObject(event.error) ? event.error.client_event_id : undefined
      const record = this.#commentaryFor(event.client_event_id ?? nested)
      if (record !== undefined) record.status = 'rejected'
    }
  }

  #commentaryFor(eventId: unknown): CommentaryRecord | undefined {
    return typeof eventId === 'string' ? this.#commentary.get(eventId) : undefined
  }

  #socketEnded(): void {
    if (this.#stopped) return
    if (!this.#closeExpected) this.#fail('client_assistant_unexpected_eof', CONNECTOR_MESSAGES.unexpectedEof)
    else if (this.#ledger.pending > 0)
      this.#fail('client_assistant_incomplete', CONNECTOR_MESSAGES.incomplete)
    else this.#endQuietly()
  }

  /** The §5 failure path: one `error` event, the retained failure, nothing pending, waiters woken. */
  #fail(code: ConnectorFailureCode, message: string): ClientAssistantError {
    if (this.#ledger.failure !== null || this.#closing !== null || this.#stopped) {
      return this.#ledger.failure ?? new ClientAssistantError(message, code)
    }
    const failure = new ClientAssistantError(message, code)
    this.#options.emit({ type: 'error', error: { code, message } })
    this.#retain(failure)
    this.#stopReceiver()
    void this.#releaseSocket()
    return failure
  }

  /** Retains `failure` (the first wins), abandons pending work and wakes every waiter. Emits nothing. */
  #retain(failure: ClientAssistantError): void {
    this.#accepting = false
    this.#queue = []
    this.#ledger.retain(failure)
  }

  /** Receiver cancelled from outside (not by close): pending work abandoned, no event. */
  #cancelReceiver(): void {
    if (this.#closing !== null || this.#stopped) return
    this.#retain(new ClientAssistantError(CONNECTOR_MESSAGES.cancelled, null))
    this.#abort.abort()
    this.#stopReceiver()
    void this.#releaseSocket()
  }

  /** The service ended the session as agreed with nothing pending: silent. */
  #endQuietly(): void {
    this.#accepting = false
    this.#stopReceiver()
    void this.#releaseSocket()
  }

  #stopReceiver(): void {
    this.#stopped = true
    this.#stopHeartbeat()
    this.#socket?.off('message', this.#onMessage)
    this.#socket?.off('close', this.#onClose)
  }

  /** Closes the socket once, cutting it when the closing handshake takes too long. */
  #releaseSocket(): Promise<void> {
    const socket = this.#socket
    if (socket === null) return Promise.resolve()
    this.#socketReleased ??= new Promise<void>((resolve) => {
      if (socket.readyState === socket.CLOSED) return resolve()
      const timer = setTimeout(() => socket.terminate(), SOCKET_CLOSE_GRACE_MS)
      socket.once('close', () => {
        clearTimeout(timer)
        resolve()
      })
      socket.close(1000)
    })
    return this.#socketReleased
  }
}

/** A text frame as a JSON object, or a protocol error (naming nothing of what the peer sent). */
function parseFrame(text: string): JsonObject {
  const frame = frameObject(text)
  if (!frame.ok) throw new ClientAssistantProtocolError(frame.problem)
  return frame.message
}

function receiverFailed(error: unknown): string {
  return CONNECTOR_MESSAGES.receiverFailed(className(error))
}
