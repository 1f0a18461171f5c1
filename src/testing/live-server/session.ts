// One offline GPT-Live session (one WebSocket): the state machine created → active → closing → closed,
// dispatch of validated client events, and the voice model's turn-taking. Everything it emits is placed on
// the received-audio clock (timeline.ts), so a run depends only on the frames the client sent.
import type { ServerEvent, SessionResource } from 'openai/resources/live/live'
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import { OFFLINE_RULE_ERROR_CODE, offlineRuleErrorIn } from '../../assistants/offline-rule-error.ts'
import { pcm16FromBase64 } from '../../audio/pcm.ts'
import { DEFAULT_ACKNOWLEDGEMENT, DelegationAcknowledgements } from './acknowledgements.ts'
import { ContextAppends } from './appends.ts'
import { isBackchannel } from './backchannels.ts'
import type { ParsedClientEvent, ParsedClientEventOf } from './client-events-schema.ts'
import { ClientDelegations } from './delegation-client.ts'
import { ResponsesDelegation } from './delegation-responses.ts'
import { applyDelegationUpdate } from './delegation-update.ts'
import type { DirectedSession, SessionDirector } from './director.ts'
import { EventStamper, type OutboundServerEvent, SessionIds } from './events.ts'
import { FaultInjector } from './faults.ts'
import { type HearingDeps, scheduleHearing, scheduleUtterance } from './hearing.ts'
import { decodedAudioBytes } from './input-audio.ts'
import { LIMIT_CLOSE, type OfflineServerLimits } from './limits.ts'
import { DelegationProgress } from './progress-updates.ts'
import { ERROR_CODES, type ProtocolError, protocolError, quoted } from './protocol-errors.ts'
import type { HeardUtterance, ResolvedSessionScript } from './script.ts'
import type { ParsedSessionConfig } from './session-config-schema.ts'
import {
  DEFAULT_AUDIO_FORMAT,
  type ResolvedDelegation,
  resolveDelegation,
  sessionResource,
} from './session-resource.ts'
import { Speaker } from './speech.ts'
import { AudioClockTimeline } from './timeline.ts'
import { takeVoiceTurn } from './turn-taking.ts'
import { parseClientFrame } from './validation.ts'
import { VoiceMemory } from './voice-memory.ts'

/** What the session needs from its WebSocket. */
export interface SessionTransport {
  sendText(text: string): void
  /** Close with a close frame. */
  close(code: number, reason: string): void
  /** Drop the connection abruptly (no close frame). */
  terminate(): void
}

/** `session.usage.updated` is sent about once a minute on the service; ours every 60 s of received audio. */
export const USAGE_INTERVAL_MS = 60_000
const DEFAULT_LIFETIME_SECONDS = 3_600
/**
 * Default `expires_at` (2100-01-01T00:00:00Z). Fixed rather than "now + 1 h" so that the bytes a session sends
 * (session snapshots, backend `created_at`) never depend on the wall clock; far enough ahead that no client
 * takes the session for expired.
 */
const DEFAULT_EXPIRES_AT = 4_102_444_800
/** WebSocket close code for a policy violation: a session that never started. */
const CLOSE_POLICY_VIOLATION = 1008

/** `start_withheld`: the withholdSessionStarted fault swallowed session.start; nothing is ever answered. */
type State = 'awaiting_start' | 'start_withheld' | 'active' | 'closing' | 'closed'

interface Started {
  config: ParsedSessionConfig
  delegation: ResolvedDelegation
  timeline: AudioClockTimeline
  speaker: Speaker
  appends: ContextAppends
  clientDelegations: ClientDelegations
  acknowledgements: DelegationAcknowledgements
  progress: DelegationProgress
  responses: ResponsesDelegation | null
  hearing: HearingDeps
}

export class OfflineLiveSession {
  readonly #transport: SessionTransport
  readonly #script: ResolvedSessionScript
  readonly #id: string
  readonly #expiresAt: number
  readonly #stamper: EventStamper
  readonly #ids = new SessionIds()
  readonly #faults: FaultInjector
  readonly #limits: OfflineServerLimits
  #state: State = 'awaiting_start'
  #started: Started | null = null
  #muted = false
  #sentCount = 0
  /** What the voice model heard and said in this session, handed to the behaviour at each turn. */
  readonly #memory = new VoiceMemory()
  /** Decides at session.start how an unregistered session behaves and hears (director.ts); null otherwise. */
  readonly #director: SessionDirector | null
  #directed: DirectedSession | null = null
  /** The registered script's behaviour, or the director's once the session started. */
  #behaviour: OfflineBehaviour | undefined

  constructor(
    transport: SessionTransport,
    script: ResolvedSessionScript,
    label: string,
    limits: OfflineServerLimits,
    director: SessionDirector | null = null,
  ) {
    this.#transport = transport
    this.#limits = limits
    this.#script = script
    this.#behaviour = script.behaviour
    this.#director = director
    this.#id = `live_offline_${label}`
    this.#stamper = new EventStamper(label)
    this.#expiresAt = script.expiresAt ?? DEFAULT_EXPIRES_AT
    this.#faults = new FaultInjector(script.faults, {
      disconnect: () => this.#end(() => this.#transport.terminate()),
      sendMalformed: (payload) => this.#sendText(payload),
      sendError: (error) => this.#send({ type: 'error', error }),
      serverClose: (reason) => this.#finishClose(reason, undefined, false),
    })
  }

  get state(): State {
    return this.#state
  }

  /**
   * One more heard utterance while the session runs (OfflineLiveServer.hear; the server checked its order).
   * Before session.start there is nothing to do: the session reads its script's hearing when it starts.
   * Whatever of it the clock has already passed happens at once.
   */
  hear(utterance: HeardUtterance): void {
    this.#guarded(() => {
      const started = this.#started
      if (started === null || this.#state !== 'active') return
      scheduleUtterance(utterance, started.hearing)
      started.timeline.runDue()
    })
  }

  /** One text frame from the client. */
  handleFrame(text: string): void {
    this.#guarded(() => this.#handleFrame(text))
  }

  /** Events are JSON text frames; the service accepts no binary frames. */
  handleBinaryFrame(): void {
    this.#guarded(() => {
      if (this.#state === 'start_withheld') return
      const error = protocolError(
        ERROR_CODES.invalidEvent,
        'Binary frames are not accepted; send JSON text frames.',
      )
      if (this.#state === 'awaiting_start') this.#refuseStart(error, undefined)
      else this.#sendError(error, undefined)
    })
  }

  /** The client's socket went away (closed or dropped). */
  handleTransportClosed(): void {
    this.#state = 'closed'
    this.#started?.timeline.stop()
    this.#endDirected()
  }

  /** Tells the director's session it is over, once (its own failure cannot reach the transport). */
  #endDirected(): void {
    const directed = this.#directed
    this.#directed = null
    try {
      directed?.ended?.()
    } catch {
      // The session is over either way.
    }
  }

  /**
   * Runs one entry point of the session. An exception here is a bug of ours (or of the behaviour a script
   * brought), never the client's: it ends this session only, with one `error` event and close 1011, and
   * never reaches the process, so the other sessions keep going.
   */
  #guarded(run: () => void): void {
    if (this.#state === 'closed') return
    try {
      run()
    } catch (error) {
      this.#failInternally(error)
    }
  }

  #failInternally(error: unknown): void {
    if (this.#state === 'closed') return
    const why = error instanceof Error ? error.message : String(error)
    // The assistant author's offline rule threw: its message (naming the rule) goes out as it is, under its own
    // code, so the harness reports the author's bug rather than a failure of this server.
    const ruleError = offlineRuleErrorIn(error)
    try {
      this.#sendError(
        ruleError === null
          ? {
              type: 'server_error',
              code: ERROR_CODES.offlineServerError,
              message: `The offline server failed while handling this session and closed it: ${quoted(why)}`,
            }
          : { type: 'server_error', code: OFFLINE_RULE_ERROR_CODE, message: ruleError.message },
        undefined,
      )
    } catch {
      // Even the error event could not be sent; the close below still ends the session.
    }
    this.#end(() => {
      try {
        this.#transport.close(
          LIMIT_CLOSE.internalError,
          ruleError === null ? 'offline server error' : 'offline rule error',
        )
      } catch {
        this.#transport.terminate()
      }
    })
  }

  #handleFrame(text: string): void {
    if (this.#state === 'start_withheld') return
    const parsed = parseClientFrame(text, this.#limits)
    if (this.#state === 'awaiting_start') {
      if (!parsed.ok) {
        this.#refuseStart(parsed.error, parsed.clientEventId)
      } else if (parsed.event.type !== 'session.start') {
        const message = `The first client event must be session.start, got ${parsed.event.type}.`
        this.#refuseStart(protocolError(ERROR_CODES.sessionNotStarted, message, 'type'), parsed.clientEventId)
      } else if (this.#script.faults?.withholdSessionStarted) {
        this.#state = 'start_withheld'
      } else {
        this.#start(parsed.event, parsed.clientEventId)
      }
      return
    }
    if (!parsed.ok) {
      this.#sendError(parsed.error, parsed.clientEventId)
      return
    }
    const problem =
      this.#state === 'closing'
        ? protocolError(
            ERROR_CODES.sessionClosing,
            `The session is closing; ${parsed.event.type} was rejected.`,
          )
        : this.#dispatch(parsed.event, parsed.clientEventId)
    if (problem !== null) this.#sendError(problem, parsed.clientEventId)
  }

  #start(event: ParsedClientEventOf<'session.start'>, clientEventId: string | undefined): void {
    const config = event.session
    if (this.#director !== null) {
      this.#directed = this.#director.direct({
        config,
        hear: (utterance) => this.hear(utterance),
        speechStarted: (text) =>
          this.#guarded(() => {
            if (!this.#muted) this.#callerStartsSpeaking(text ?? '')
          }),
        say: (text) => this.#guarded(() => this.#sayUnprompted(text)),
      })
      this.#behaviour = this.#directed?.behaviour
    }
    const delegation = resolveDelegation(config)
    const format = config.audio?.format ?? DEFAULT_AUDIO_FORMAT
    const timeline = new AudioClockTimeline(format.rate)
    const send = (outbound: OutboundServerEvent) => this.#send(outbound)
    const speaker = new Speaker({
      timeline,
      send,
      sampleRateHz: format.rate,
      onSpeechEnd: (interval) => {
        this.#send(this.#usageUpdated())
        this.#directed?.stoppedSpeaking?.(interval)
      },
      onSpeechStart: (said) => this.#memory.startedSaying(said),
      onSynthesized: (text, samples) => this.#directed?.spoke?.(text, samples),
    })
    const speak = (text: string, notBeforeMs: number) => void speaker.speak(text, notBeforeMs)
    const clientDelegations = new ClientDelegations(this.#ids, send)
    const acknowledgements = new DelegationAcknowledgements({
      timeline,
      text: this.#script.acknowledgement ?? DEFAULT_ACKNOWLEDGEMENT,
      speak,
    })
    const behaviour = this.#behaviour
    const progress = new DelegationProgress({
      timeline,
      line:
        behaviour?.progressUpdate === undefined
          ? undefined
          : (call) => behaviour.progressUpdate?.(call) ?? null,
      speak: (text, notBeforeMs) => speaker.speak(text, notBeforeMs),
      busyUntilMs: () => speaker.busyUntilMs,
    })
    const started: Started = {
      config,
      delegation,
      timeline,
      speaker,
      clientDelegations,
      acknowledgements,
      progress,
      appends: new ContextAppends({
        timeline,
        send,
        sendError: (error, id) => this.#sendError(error, id),
        ackDelayMs: this.#script.faults?.ackDelayMs ?? 0,
        delegationMode: () => (this.#delegation().type === 'responses' ? 'responses' : 'client'),
        isKnownClientDelegation: (id) => clientDelegations.isKnown(id),
        speak,
        maxPending: this.#limits.maxPendingAppends,
      }),
      hearing: {
        timeline,
        send,
        isMuted: () => this.#muted,
        // An utterance heard only once it was over (recognised late, by a director) takes no floor: the caller
        // stopped talking; a director tells the start of speech as it happens (speechStarted).
        onSpeechStart: (utterance) => {
          if (started.timeline.nowMs < utterance.endMs) this.#callerStartsSpeaking(utterance.text)
        },
        onUtterance: (text) => this.#takeTurn(text),
      },
      responses:
        behaviour === undefined
          ? null
          : new ResponsesDelegation({
              ids: this.#ids,
              send,
              behaviour,
              // The session's fixed start instant plus its audio clock: never the wall clock, so the bytes
              // of a run depend only on what it sent.
              createdAt: () => this.#expiresAt - DEFAULT_LIFETIME_SECONDS + Math.floor(timeline.nowMs / 1000),
              speak: (text, delegationId) => {
                acknowledgements.answered(delegationId)
                progress.answered(delegationId)
                speak(text, timeline.nowMs)
              },
              settled: (delegationId) => {
                acknowledgements.answered(delegationId)
                progress.answered(delegationId)
              },
              ...(this.#script.backendFaults === undefined ? {} : { faults: this.#script.backendFaults }),
              after: (delayMs, action) => timeline.schedule(timeline.nowMs + delayMs, 'listening', action),
            }),
    }
    this.#started = started
    this.#state = 'active'
    this.#send(withClientEventId({ type: 'session.started', session: this.#resource() }, clientEventId))
    scheduleHearing(this.#script.hearing, started.hearing)
    const scheduleUsage = (atMs: number) =>
      timeline.schedule(atMs, 'listening', () => {
        this.#send(this.#usageUpdated())
        scheduleUsage(atMs + USAGE_INTERVAL_MS)
      })
    scheduleUsage(USAGE_INTERVAL_MS)
    this.#faults.armAudioClock(timeline)
  }

  #dispatch(event: ParsedClientEvent, clientEventId: string | undefined): ProtocolError | null {
    const started = this.#requireStarted()
    switch (event.type) {
      case 'session.start':
        return protocolError(
          ERROR_CODES.sessionAlreadyStarted,
          'session.start may be sent only once.',
          'type',
        )
      case 'session.update':
        return this.#update(event, clientEventId)
      case 'session.input_audio.append':
        return this.#appendAudio(event.audio, started)
      case 'session.input_audio.mute':
      case 'session.input_audio.unmute':
        this.#muted = event.type === 'session.input_audio.mute'
        this.#send(
          withClientEventId(
            { type: this.#muted ? 'session.input_audio.muted' : 'session.input_audio.unmuted' },
            clientEventId,
          ),
        )
        return null
      case 'session.instructions.append':
        return started.appends.accept(event, clientEventId)
      case 'session.thinking.append':
      case 'session.commentary.append': {
        const problem = started.appends.accept(event, clientEventId)
        // The service drops every pending acknowledgement once commentary or thinking reaches the session.
        if (problem === null) started.acknowledgements.cancelAll()
        // A client delegation's commentary is its answer: the caller is no longer kept waiting for it.
        if (problem === null && event.type === 'session.commentary.append' && event.delegation_id !== null)
          started.progress.answered(event.delegation_id)
        return problem
      }
      case 'response.item.create':
      case 'response.create':
        return this.#responseCommand(event, started)
      case 'session.close':
        return this.#beginClose(clientEventId)
    }
  }

  #update(
    event: ParsedClientEventOf<'session.update'>,
    clientEventId: string | undefined,
  ): ProtocolError | null {
    const started = this.#requireStarted()
    const updated = applyDelegationUpdate(started.delegation, event.session.delegation)
    if ('code' in updated) return updated
    started.delegation = updated
    this.#send(withClientEventId({ type: 'session.updated', session: this.#resource() }, clientEventId))
    return null
  }

  #appendAudio(audio: string, started: Started): ProtocolError | null {
    const byteCount = decodedAudioBytes(audio)
    if (typeof byteCount !== 'number') return byteCount
    started.timeline.receive(byteCount)
    this.#directed?.receiveAudio?.(pcm16FromBase64(audio), started.timeline.nowMs)
    return null
  }

  #responseCommand(
    event: ParsedClientEventOf<'response.item.create' | 'response.create'>,
    started: Started,
  ): ProtocolError | null {
    const delegation = started.delegation
    if (delegation.type !== 'responses') {
      return protocolError(
        ERROR_CODES.notResponsesDelegation,
        `${event.type} is only accepted with Responses delegation; this session uses ${delegation.type} delegation.`,
        'type',
      )
    }
    if (started.responses === null) {
      return protocolError(
        ERROR_CODES.unsupportedOffline,
        `No offline behaviour was registered for this session, so there is no backend response to continue.`,
      )
    }
    return event.type === 'response.item.create'
      ? started.responses.addItem(event)
      : started.responses.continue(delegation.responses)
  }

  /** Heard caller speech starts: a voice model that is talking yields the floor (barge-in). */
  #callerStartsSpeaking(text: string): void {
    const started = this.#started
    // A backchannel is the caller listening, not taking the floor.
    if (started === null || this.#state !== 'active' || isBackchannel(text)) return
    const nowMs = started.timeline.nowMs
    if (!started.speaker.isSpeakingAt(nowMs)) return
    this.#memory.withhold(started.speaker.yieldAt(nowMs))
  }

  /** The directed voice model speaks on its own initiative (director.ts `say`). */
  #sayUnprompted(text: string): void {
    const started = this.#started
    if (started === null || this.#state !== 'active') return
    const delegation = started.delegation
    if (delegation.type === 'responses' && started.responses !== null)
      started.responses.reason(delegation.responses, '', text, started.timeline.nowMs)
    else started.speaker.speak(text, started.timeline.nowMs)
  }

  /** The voice model's turn after hearing `text` (only while active, and only with a behaviour). */
  #takeTurn(text: string): void {
    const behaviour = this.#behaviour
    const started = this.#started
    if (behaviour === undefined || started === null || this.#state !== 'active') return
    // Heard, and nothing to answer: the caller only acknowledged what it is hearing.
    if (isBackchannel(text)) return
    const earlier = this.#memory.turns()
    this.#memory.heard(text)
    // What a yield withdrew (a result it had not told yet) still needs saying; it comes first.
    for (const withheld of this.#memory.takeWithheld())
      started.speaker.speak(withheld, started.timeline.nowMs)
    takeVoiceTurn(text, {
      earlier,
      behaviour,
      delegation: started.delegation,
      speaker: started.speaker,
      responses: started.responses,
      clientDelegations: started.clientDelegations,
      acknowledgements: started.acknowledgements,
      progress: started.progress,
      nowMs: started.timeline.nowMs,
    })
  }

  #beginClose(clientEventId: string | undefined): null {
    const started = this.#requireStarted()
    this.#state = 'closing'
    started.appends.failPending()
    started.responses?.abandon()
    // The service lets output already under way drain before it confirms the close.
    for (const action of started.timeline.takePendingOutput()) action()
    if (this.#script.faults?.withholdSessionClosed) return null
    // Finalize on a later turn of the event loop, so commands already in flight are rejected as "closing".
    setImmediate(() => this.#guarded(() => this.#finishClose('close_requested', clientEventId, true)))
    return null
  }

  #finishClose(
    reason: Extract<ServerEvent, { type: 'session.closed' }>['reason'],
    clientEventId: string | undefined,
    graceful: boolean,
  ): void {
    const started = this.#started
    if (started === null || this.#state === 'closed') return
    if (!graceful) started.appends.failPending()
    this.#send(
      withClientEventId(
        {
          type: 'session.closed',
          reason,
          session: this.#resource(),
          usage: { seconds: usageSeconds(started) },
        },
        clientEventId,
      ),
    )
    this.#end(() => this.#transport.close(1000, reason))
  }

  #end(closeTransport: () => void): void {
    if (this.#state === 'closed') return
    this.#state = 'closed'
    this.#started?.timeline.stop()
    this.#endDirected()
    closeTransport()
  }

  #refuseStart(error: ProtocolError, clientEventId: string | undefined): void {
    this.#sendError(error, clientEventId)
    this.#end(() => this.#transport.close(CLOSE_POLICY_VIOLATION, 'session.start failed'))
  }

  #sendError(error: ProtocolError, clientEventId: string | undefined): void {
    const body = {
      type: error.type ?? 'invalid_request_error',
      code: error.code,
      message: error.message,
      ...(error.param === undefined ? {} : { param: error.param }),
      ...(clientEventId === undefined ? {} : { client_event_id: clientEventId }),
    }
    this.#send(withClientEventId({ type: 'error', error: body }, clientEventId))
  }

  #send(event: OutboundServerEvent): void {
    this.#sendText(JSON.stringify(this.#stamper.stamp(event)))
  }

  #sendText(text: string): void {
    if (this.#state === 'closed') return
    this.#transport.sendText(text)
    this.#sentCount++
    this.#faults.afterEventSent(this.#sentCount)
  }

  #usageUpdated(): OutboundServerEvent {
    return { type: 'session.usage.updated', usage: { seconds: usageSeconds(this.#requireStarted()) } }
  }

  #resource(): SessionResource {
    const started = this.#requireStarted()
    return sessionResource(this.#id, this.#expiresAt, started.config, started.delegation)
  }

  #delegation(): ResolvedDelegation {
    return this.#requireStarted().delegation
  }

  #requireStarted(): Started {
    if (this.#started === null) throw new Error('offline GPT-Live session: used before session.start')
    return this.#started
  }
}

/** Received caller audio in seconds, to the millisecond (the service reports whole seconds; we keep precision). */
function usageSeconds(started: Started): number {
  return Math.round(started.timeline.receivedSeconds * 1000) / 1000
}

function withClientEventId<T extends object>(event: T, clientEventId: string | undefined): T {
  return clientEventId === undefined ? event : { ...event, client_event_id: clientEventId }
}
