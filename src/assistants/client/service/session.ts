// One client-delegation session: one WebSocket connection from the evaluator's connector. It waits (under the
// configure deadline) for `session.configure`, builds this connection's application with the factories, and
// answers `session.ready`; then it feeds every forwarded Live event to the in-process delegation controller,
// whose handoffs, tool evidence, commentary and completions go back as frames. It ends when the peer closes,
// when the connector forwards Live's `session.closed` (answered with `session.closed`), or on the first
// failure: the error envelope (code only, "Session stopped"), then the controller closed (running work
// cancelled, backend closed once), then the socket, each cleanup step under the cleanup deadline.
import type { CommentaryAppendEvent } from 'openai/resources/live/live'
import type { RawData, WebSocket } from 'ws'
import { ToolRuntime } from '../../runtime/tool-runtime.ts'
import type { ObservationEvent } from '../backend/application-backend.ts'
import { runtimeToolCallback } from '../backend/tool-callback.ts'
import { ClientDelegationController } from '../delegation/client-delegation-controller.ts'
import type { ServiceApplication } from './application.ts'
import {
  ClientLimitError,
  ClientProtocolError,
  ClientSessionTimeoutError,
  errorClassName,
  sessionErrorCode,
} from './errors.ts'
import type { ServiceLimits } from './limits.ts'
import { assistantEventFor, delegationIdOf, sanitizedBackendError } from './outbound-events.ts'
import {
  type ForwardedLiveEvent,
  frameByteLength,
  frameObject,
  frameText,
  liveEventMessageSchema,
  SESSION_STOPPED_MESSAGE,
  type SessionConfigure,
  sessionConfigureSchema,
} from './protocol/index.ts'

export interface ServiceSessionOptions {
  socket: WebSocket
  limits: ServiceLimits
  application: ServiceApplication
  /**
   * Accept `application_state` and `conversation_summary` in the configure (`--accept-scenario-state`); otherwise
   * either is a protocol error.
   */
  acceptScenarioState: boolean
  /** Receives one line per failure, naming only error classes. */
  log: (line: string) => void
}

type SessionState = 'awaiting_configure' | 'configured' | 'ending'

/** WebSocket close codes: 1000 normal end, 1001 service going away, 1008 the peer broke a rule, 1011 the service failed. */
const NORMAL_CLOSE = 1000
const GOING_AWAY = 1001
const POLICY_CLOSE = 1008
const INTERNAL_CLOSE = 1011

export class ServiceSession {
  /** Settles once the session has ended and cleaned up (the server's connection counter waits for it). */
  readonly finished: Promise<void>
  readonly #socket: WebSocket
  readonly #limits: ServiceLimits
  readonly #options: ServiceSessionOptions
  readonly #socketClosed: Promise<void>
  readonly #timers: NodeJS.Timeout[] = []
  #state: SessionState = 'awaiting_configure'
  #inboundFrames = 0
  #inboundBytes = 0
  #runtime: ToolRuntime | null = null
  #controller: ClientDelegationController | null = null
  /** Client delegation ids accepted on this connection (duplicates never count twice). */
  readonly #accepted = new Set<string>()
  /** Delegations whose failure was already reported; nothing more of theirs is sent. */
  readonly #reportedFailures = new Set<string>()
  #commentarySent = 0
  #finish!: () => void

  constructor(options: ServiceSessionOptions) {
    this.#options = options
    this.#socket = options.socket
    this.#limits = options.limits
    this.finished = new Promise((resolve) => {
      this.#finish = resolve
    })
    this.#socketClosed = new Promise((resolve) => this.#socket.once('close', () => resolve()))
    this.#after(options.limits.configure_timeout, () => {
      if (this.#state === 'awaiting_configure')
        this.#stop(new ClientSessionTimeoutError('no configure in time'))
    })
    this.#after(options.limits.session_timeout, () =>
      this.#stop(new ClientSessionTimeoutError('session over')),
    )
    this.#socket.on('message', (data, isBinary) => this.#receive(data, isBinary))
    this.#socket.once('close', () => this.#onPeerClosed())
    // An 'error' is always followed by 'close'; without a listener it would throw.
    this.#socket.on('error', () => {})
  }

  /** Ends the session without an error envelope (service shutdown): running work is cancelled. */
  shutDown(): Promise<void> {
    if (this.#state !== 'ending') {
      this.#state = 'ending'
      void this.#cleanUp(null, GOING_AWAY)
    }
    return this.finished
  }

  #after(seconds: number, action: () => void): void {
    const timer = setTimeout(action, seconds * 1000)
    timer.unref()
    this.#timers.push(timer)
  }

  #receive(data: RawData, isBinary: boolean): void {
    if (this.#state === 'ending') return
    this.#inboundFrames += 1
    this.#inboundBytes += frameByteLength(data)
    try {
      if (isBinary) throw new ClientProtocolError('binary frames are not part of the protocol')
      if (this.#inboundFrames > this.#limits.max_events) throw new ClientLimitError('max_events')
      if (this.#inboundBytes > this.#limits.max_session_bytes) throw new ClientLimitError('max_session_bytes')
      this.#handle(frameText(data))
    } catch (error) {
      this.#stop(error)
    }
  }

  #handle(text: string): void {
    const frame = frameObject(text)
    if (!frame.ok) throw new ClientProtocolError(frame.problem)
    const { message } = frame
    if (message.type === 'session.configure') this.#configure(message)
    else if (message.type === 'live.event') this.#liveEvent(message)
    else throw new ClientProtocolError('unknown message type')
  }

  #configure(message: object): void {
    if (this.#state !== 'awaiting_configure') {
      throw new ClientProtocolError('The client assistant session is already configured')
    }
    const parsed = sessionConfigureSchema.safeParse(message)
    if (!parsed.success) throw new ClientProtocolError('invalid session.configure')
    const configure: SessionConfigure = parsed.data
    const scenarioContext =
      configure.application_state !== undefined || configure.conversation_summary !== undefined
    if (scenarioContext && !this.#options.acceptScenarioState) {
      throw new ClientProtocolError('scenario context needs a service started with --accept-scenario-state')
    }
    const runtime = new ToolRuntime(this.#options.application.tools(configure))
    const backend = this.#options.application.backend(configure, {
      callTool: runtimeToolCallback(runtime),
      initialState: runtime.snapshot(),
    })
    this.#runtime = runtime
    this.#controller = new ClientDelegationController({
      backend,
      sendToLive: (event) => this.#sendCommentary(event),
      emit: (event) => this.#publish(event),
      initialItems: configure.initial_items ?? [],
      deadlineMs: this.#limits.delegation_timeout * 1000,
    })
    this.#state = 'configured'
    // A state that filled the inbound frame may not fit the reply; the peer must not wait for a ready that never comes.
    if (!this.#send({ type: 'session.ready', application_state: runtime.snapshot() })) {
      throw new ClientLimitError('session.ready over max_message_bytes')
    }
  }

  #liveEvent(message: object): void {
    if (this.#state !== 'configured' || this.#controller === null) {
      throw new ClientProtocolError('live.event before session.configure')
    }
    const parsed = liveEventMessageSchema.safeParse(message)
    if (!parsed.success) throw new ClientProtocolError('Unsupported Live message field or event')
    const event: ForwardedLiveEvent = parsed.data.event
    if (event.type === 'session.delegation.created') this.#admitDelegation(event.delegation.id)
    this.#controller.observe(event)
    if (event.type === 'session.closed') {
      this.#state = 'ending'
      this.#send({ type: 'session.closed' })
      void this.#cleanUp(null, NORMAL_CLOSE)
    }
  }

  /** Limit checks for a new delegation happen before it is recorded; a repeated id is not new. */
  #admitDelegation(id: string): void {
    if (this.#accepted.has(id)) return
    if ((this.#controller?.pending ?? 0) >= this.#limits.max_pending_delegations) {
      throw new ClientLimitError('max_pending_delegations')
    }
    if (this.#accepted.size >= this.#limits.max_delegations) throw new ClientLimitError('max_delegations')
    this.#accepted.add(id)
  }

  /**
   * The controller's way to GPT-Live. The event id is ours to choose: `event_` + 32 hex digits, counted per
   * session so offline runs stay byte-identical. False (the delegation fails) when the frame is too big or the
   * session is ending.
   */
  #sendCommentary(event: CommentaryAppendEvent): boolean {
    if (this.#state !== 'configured') return false
    this.#commentarySent += 1
    const eventId = `event_${this.#commentarySent.toString(16).padStart(32, '0')}`
    return this.#send({ type: 'live.send', event: { ...event, event_id: eventId } })
  }

  /** One controller observation out as `assistant.event`; an oversized one fails its delegation instead. */
  #publish(observation: ObservationEvent): void {
    if (this.#state !== 'configured' || this.#runtime === null) return
    const delegationId = delegationIdOf(observation)
    if (delegationId !== null && this.#reportedFailures.has(delegationId)) return
    if (observation.type === 'error') {
      if (delegationId !== null) this.#reportedFailures.add(delegationId)
      this.#options.log(`client-assistant: a delegation failed (${failureClass(observation)})`)
      this.#send({ type: 'assistant.event', event: sanitizedBackendError() })
      return
    }
    const event = assistantEventFor(observation, this.#runtime)
    if (this.#send({ type: 'assistant.event', event })) return
    this.#options.log('client-assistant: a delegation failed (outbound frame over max_message_bytes)')
    if (delegationId !== null) {
      this.#reportedFailures.add(delegationId)
      this.#controller?.cancel(delegationId)
    }
    this.#send({ type: 'assistant.event', event: sanitizedBackendError() })
  }

  /** Sends one frame if it fits max_message_bytes and the socket is open; measured on the exact text sent. */
  #send(frame: object, onSent?: () => void): boolean {
    const text = JSON.stringify(frame)
    if (Buffer.byteLength(text, 'utf8') > this.#limits.max_message_bytes) return false
    if (this.#socket.readyState !== this.#socket.OPEN) return false
    this.#socket.send(text, onSent)
    return true
  }

  #stop(error: unknown): void {
    if (this.#state === 'ending') return
    this.#state = 'ending'
    this.#options.log(`client-assistant: session stopped (${errorClassName(error)})`)
    void this.#cleanUp(
      error,
      sessionErrorCode(error) === 'client_assistant_error' ? INTERNAL_CLOSE : POLICY_CLOSE,
    )
  }

  #onPeerClosed(): void {
    if (this.#state === 'ending') return
    this.#state = 'ending'
    void this.#cleanUp(null, NORMAL_CLOSE)
  }

  /** Error envelope (for a failure), controller close, socket close: each bounded by the cleanup deadline. */
  async #cleanUp(error: unknown, closeCode: number): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer)
    const deadlineMs = this.#limits.cleanup_timeout * 1000
    if (error !== null) {
      const envelope = {
        type: 'error',
        error: { code: sessionErrorCode(error), message: SESSION_STOPPED_MESSAGE },
      }
      await withinDeadline(
        new Promise<void>((resolve) => {
          if (!this.#send(envelope, () => resolve())) resolve()
        }),
        deadlineMs,
      )
    }
    if (this.#controller !== null) await withinDeadline(this.#controller.close(), deadlineMs)
    if (
      this.#socket.readyState === this.#socket.OPEN ||
      this.#socket.readyState === this.#socket.CONNECTING
    ) {
      this.#socket.close(closeCode)
    }
    if (!(await withinDeadline(this.#socketClosed, deadlineMs))) this.#socket.terminate()
    await this.#socketClosed
    this.#finish()
  }
}

/** Resolves true when `work` settles within `ms`, false when the deadline came first; never rejects. */
async function withinDeadline(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      deadline,
    ])
  } finally {
    clearTimeout(timer)
  }
}

/** The controller's failure message names only the cause's class ("Client delegation failed (X)"). */
function failureClass(observation: ObservationEvent): string {
  const error = observation.error as { code?: unknown } | undefined
  return typeof error?.code === 'string' ? error.code : 'unknown'
}
