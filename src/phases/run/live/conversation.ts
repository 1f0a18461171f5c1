// The live RUN conversation: two GPT-Live sessions on one media clock. This is the entry point the RUN phase
// module calls in live mode:
//
//   runLiveConversation(options: LiveConversationOptions): Promise<LiveConversation>
//
// - The caller is a second session started with the brief (brief.ts), in its own voice, with its own reasoning
//   backend and no tools (caller-session.ts); the assistant under test is opened for this scenario's
//   application (participants.ts).
// - Caller first (default): the caller is asked to open with `input.text` (commentary, `delegation_id: null`)
//   and must be heard within 20 s. Assistant first: the prompt file's text goes unchanged to the assistant as
//   commentary with `delegation_id: null`; caller speech before the greeting fails the opening.
// - Both voices are relayed every tick with paired sends; the caller's passes through the run's acoustic preset
//   frame by frame; the timeline records what each side heard (relay.ts).
// - The completion observer (completion-observer.ts) or its fallback signals completion (in a caller replay, so
//   does the recorded caller once it is done: silenced at a departure, or played out); the drain (drain.ts)
//   ends the call; the maximum duration, the work grace and the cleanup deadline bound it (call-loop.ts,
//   closing.ts). Caller actions are inferred afterwards (caller-actions.ts), validity from the caller's
//   delegations (validity.ts).
//
// It throws a LiveRunError when the call never got going (a session that does not start, a failed opening, a
// session lost mid-call); a failure after the call was played (pending work, cleanup) is returned in `failure`
// with the conversation kept as diagnostics. Offline, the same driver runs both sessions on the offline server
// with a virtual clock (the tests); the offline RUN phase keeps its scripted caller (../conversation.ts).
import { RealismProcessor } from '../../../audio/effects/index.ts'
import { FRAME_MS } from '../../../audio/pcm.ts'
import type { LiveSessionOutcome } from '../../../live/index.ts'
import type { ModelUsageEvent } from '../../../models/index.ts'
import { type ClockMode, SessionTimeline } from '../../../observability/timeline.ts'
import { MediaClock, type RecordingSync, type ReplaySync } from '../../engine/media-clock.ts'
import { describeError, StageError } from '../../engine/stage.ts'
import { assistantCutOff, terminationWithCutOff } from '../cut-off.ts'
import { CompletionDrain, type ReplayedCallerSignal } from '../drain.ts'
import { AssistantListener } from '../offline-caller.ts'
import { type CallLoop, playCall, settleWork } from './call-loop.ts'
import { countActions, inferCallerActions } from './caller-actions.ts'
import { closeParticipants } from './closing.ts'
import { CompletionObserver } from './completion-observer.ts'
import { LiveRunError } from './errors.ts'
import { ConversationEvidence } from './evidence.ts'
import { callCompletionObserver, type ObserverCallSettings, type ObserverFacts } from './observer-call.ts'
import { openParticipants, type ParticipantOptions, type Participants } from './participants.ts'
import { ConversationRelay } from './relay.ts'
import type { LiveConversation } from './result.ts'
import { DEFAULT_LIVE_RULES, type LiveCallRules } from './rules.ts'
import { CallerBackendWatch } from './validity.ts'

export interface LiveConversationHooks {
  /** Called once both sessions started, before the opening: a harness may subscribe (traces, offline bridges). */
  sessionsStarted?(participants: Pick<Participants, 'assistant' | 'caller'>): void
  /** Called after every media clock step with the timeline's time. */
  afterStep?(nowMs: number): void
}

export interface LiveConversationOptions extends ParticipantOptions {
  /** Evaluator-only facts; only the completion observer reads them, never a participant. */
  observerFacts: ObserverFacts
  /** The persona's own backchannels, for action inference. */
  backchannels: readonly string[]
  /**
   * Live: real time; the offline tests: virtual. `tickMs` is simulation.tick_ms. `replay` (a replay's
   * synchronisation with its replay server) plays the real-time call it recorded on the virtual clock: the call
   * keeps its real-time rules (nothing waits for the observer), only the clock no longer waits for the wall.
   */
  clock: { mode: ClockMode; tickMs: number; replay?: ReplaySync | null; recording?: RecordingSync | null }
  /** The acoustic preset on the caller's voice (simulation.condition and seed). */
  preset: { condition: string; seed: number; overrides?: unknown; baseDirectory?: string }
  /** Assistant first: the prompt file's text, sent unchanged; null: the caller speaks first. */
  assistantFirstPrompt: string | null
  rules?: LiveCallRules
  /** The observer's model call (completion_model, completion_timeout_seconds); null without semantic drain. */
  observer: ObserverCallSettings | null
  hooks?: LiveConversationHooks
  /**
   * A replayed caller (replay.caller): at media time `nowMs`, whether it is done (silenced at a departure, or its
   * recording played out). From then on the call has no caller left to end it, so it ends once the drain is
   * satisfied, rather than at the maximum duration.
   */
  recordedCallerDone?: (nowMs: number) => ReplayedCallerSignal | null
}

const CLOSE_WAIT_BEYOND_CLEANUP_MS = 1_000

const usageSecondsMs = (outcome: LiveSessionOutcome) =>
  outcome.type === 'closed' ? Math.round(outcome.usageSeconds * 1000) : null

export async function runLiveConversation(options: LiveConversationOptions): Promise<LiveConversation> {
  const rules = options.rules ?? DEFAULT_LIVE_RULES
  const mode = options.clock.mode
  // The record counts the audio the two sessions were sent, in both modes, because that is their clock: their
  // captions and timings are on it. Real time, a stall of the event loop makes the pacer re-anchor rather than
  // burst, so sent audio falls behind the wall clock, and a wall-clock record would drift from both sessions'.
  const timeline = new SessionTimeline({ mode: 'virtual' })
  const preset = await RealismProcessor.create(options.preset).catch((error: unknown) => {
    throw new StageError(
      'input_setup',
      `The caller's acoustic preset cannot be built: ${describeError(error)}`,
      {
        cause: error,
      },
    )
  })
  const listener = new AssistantListener()
  const faults = options.application.faults
  // Faulted work is held on the call's media clock in every mode, as offline: live, the clock follows real time,
  // and a wait that ended on the wall clock instead came out between other frames than in its replay (on the
  // virtual clock), which then diverged from its cassette at the held tool output.
  if (faults !== null) faults.timers.useVirtualClock()
  const relay = new ConversationRelay({ timeline, preset, listener, faults })
  const watch = new CallerBackendWatch(options.callerBackend !== null)
  // The sessions' own close wait outlasts the cleanup deadline, so a close that hangs is `cleanup_timeout` and
  // `session_close` is kept for a session that ended without `session.closed`.
  const closeTimeout = { closeTimeoutMs: rules.cleanupTimeoutMs + CLOSE_WAIT_BEYOND_CLEANUP_MS }
  let participants: Participants
  try {
    participants = await openParticipants(
      {
        ...options,
        connections: {
          assistant: { ...options.connections.assistant, ...closeTimeout },
          caller: { ...options.connections.caller, ...closeTimeout },
        },
      },
      { timeline, relay, watch },
    )
  } catch (error) {
    preset.close()
    throw error
  }
  const { assistant, caller, delegationIds } = participants
  const observerUsage: ModelUsageEvent[] = []
  const settings = options.observer
  // Ends a request still in flight when the call is over (its answer could no longer change anything).
  const observerStop = new AbortController()
  const observer =
    settings === null
      ? null
      : new CompletionObserver(async (input) => {
          const signal =
            settings.signal === undefined
              ? observerStop.signal
              : AbortSignal.any([settings.signal, observerStop.signal])
          const { decision, usage } = await callCompletionObserver({ ...settings, signal }, input)
          observerUsage.push(usage)
          return decision
        }, rules.observer)
  const work = { assistantBusy: false, executionCount: 0 }
  const loop: CallLoop = {
    mode,
    clock: new MediaClock({
      mode: options.clock.replay ? 'virtual' : mode,
      replay: options.clock.replay ?? null,
      recording: options.clock.recording ?? null,
      stepMs: options.clock.tickMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }),
    streams: relay.streams({ assistant: assistant.session, caller }),
    timeline,
    relay,
    evidence: new ConversationEvidence({
      timeline,
      relay,
      tools: assistant.tools,
      expectedState: options.observerFacts.expected_application_state,
      assistantBusy: () => work.assistantBusy,
      callerBackendWorking: () => watch.working,
    }),
    drain: new CompletionDrain({ drainMs: rules.drainMs, finalQuietMs: rules.finalQuietMs }),
    observer,
    observerFacts: options.observerFacts,
    watch,
    assistant,
    delegationIds,
    executionTimes: new Map(),
    finishedDelegations: { ids: new Set(), seen: 0 },
    rules,
    work,
    assistantFirst: options.assistantFirstPrompt !== null,
    recordedCallerDone: options.recordedCallerDone ?? (() => null),
    afterStep: (nowMs) => {
      // Work a fault holds back is due on this clock; what it released runs before the next frame goes out.
      const released = faults?.timers.advanceAndRun(nowMs)
      options.hooks?.afterStep?.(nowMs)
      return released
    },
  }

  let played: Awaited<ReturnType<typeof playCall>>
  let assistantSettled: boolean
  let cutOff = false
  let bufferedAtEnd = false
  try {
    options.hooks?.sessionsStarted?.({ assistant, caller })
    const opening =
      options.assistantFirstPrompt === null
        ? caller.send({
            type: 'session.commentary.append',
            content: options.brief.openingText,
            delegation_id: null,
          })
        : assistant.session.send({
            type: 'session.commentary.append',
            content: options.assistantFirstPrompt,
            delegation_id: null,
          })
    if (opening === null) throw new Error('a session ended before the opening could be sent')
    played = await playCall(loop)
    // Whether the assistant was still talking when the call ended: read before the work grace keeps the clock going.
    cutOff = assistantCutOff({
      bufferedSpeech: relay.fromAssistant.bufferedSpeech,
      lastAssistantVoiceEndMs: relay.assistantTrack.lastVoiceEndMs,
      endedAtMs: timeline.nowMs(),
      withinMs: FRAME_MS,
    })
    bufferedAtEnd = relay.fromAssistant.bufferedSpeech
    ;({ assistantSettled } = await settleWork(loop))
  } catch (error) {
    observer?.close()
    observerStop.abort()
    participants.stopListening()
    await closeParticipants(assistant, caller, rules.cleanupTimeoutMs)
    preset.close()
    // An abort is the caller of this function stopping the run, not a failure of the call.
    if (options.signal?.aborted) throw error
    throw asRunError(error, participants)
  }
  observer?.close()
  observerStop.abort()
  relay.finish()
  const validity = watch.validity()
  participants.stopListening()
  const closed = await closeParticipants(assistant, caller, rules.cleanupTimeoutMs)
  const audioRealism = preset.finish()

  const failure = !assistantSettled
    ? {
        stage: 'response_collection' as const,
        reason: 'pending_work_timeout' as const,
        message: `the assistant's delegated work did not settle within the work grace (${rules.workGraceMs} ms)`,
      }
    : closed.failure === null
      ? null
      : { stage: 'response_collection' as const, ...closed.failure }
  const plan = inferCallerActions(
    loop.evidence.lines
      .filter((line) => line.role === 'user')
      .map((line) => ({ text: line.text, startMs: line.startMs, endMs: line.endMs })),
    // The relay's own voice activity, measured frame by frame as the call went: rendering the recording to
    // measure it here would hold the event loop for every other call's relay at once.
    relay.assistantTrack.voiced,
    { backchannels: options.backchannels, stopAllowed: observer === null && loop.evidence.stateVerified },
  )
  return {
    call: {
      assistant,
      timeline,
      listener,
      endedAtMs: timeline.nowMs(),
      bufferedSpeechAtEnd: bufferedAtEnd,
      executionTimes: loop.executionTimes,
      delegationIds: [...delegationIds],
      closeOutcome: closed.assistant,
      stoppedBy: played.termination === 'response_completed' ? 'watcher' : 'step_limit',
    },
    plan,
    termination_reason: failure?.reason ?? terminationWithCutOff(played.termination, cutOff),
    assistant_cut_off: cutOff,
    finish_observed_ms: loop.drain.finishObservedMs,
    completion_signal: loop.drain.drainedBy,
    caller_actions: countActions(plan),
    completion_policy: played.policy,
    drain_revocations: [...loop.drain.revocations],
    // Nothing schedules caller interventions in a live call yet (the offline driver's interventions/ do).
    interventions: [],
    validity,
    caller: {
      session: caller,
      model: options.callerModel,
      voice: participants.callerVoice,
      closeOutcome: closed.caller,
      audio_duration_ms: usageSecondsMs(closed.caller),
      backend_usage: [...watch.usage],
    },
    observer: {
      assessments: observer?.records ?? [],
      usage: observerUsage,
      failure: observer?.failure ?? null,
    },
    audio_realism: audioRealism,
    clock_mode: loop.clock.mode,
    relay_lateness_ms: loop.clock.frameLateness(),
    failure,
  }
}

/** A failure during the call, named by the side that was lost when one was. */
function asRunError(error: unknown, participants: Participants): LiveRunError {
  if (error instanceof LiveRunError) return error
  // A session that ended on its own during the call (failed, or closed by the server) is the side that was lost.
  const lost =
    participants.caller.settled !== undefined
      ? 'caller_connection'
      : participants.assistant.session.settled !== undefined
        ? 'assistant_connection'
        : 'response_collection'
  return new LiveRunError(
    'response_collection',
    lost,
    `the call failed while it was played: ${describeError(error)}`,
    {
      cause: error,
    },
  )
}
