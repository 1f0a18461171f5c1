// The tick loop of a live call. After every media clock step it records what the step brought (tool results,
// settled delegations), holds the openings to §6 (the opening speaker heard within the deadline; in an
// assistant-first call, no caller speech before the greeting), stops at the maximum duration, feeds caller
// onsets and evidence changes to the drain, lets the completion observer (or, without one or after its first
// error, the fallback policy) signal completion, as does a replayed caller that is done (silenced at a departure,
// or played out; no revocation then), and ends the call once the drain is satisfied. Afterwards it
// keeps the clock running for the work grace until both sides' delegated work has settled.
import type { AssistantUnderTest } from '../../../assistants/assistant-session.ts'
import type { ClockMode, SessionTimeline } from '../../../observability/timeline.ts'
import type { ClockedStream, MediaClock } from '../../engine/media-clock.ts'
import type { CompletionDrain, ReplayedCallerSignal } from '../drain.ts'
import { isFarewell } from './caller-actions.ts'
import type { CompletionObserver } from './completion-observer.ts'
import { LiveRunError } from './errors.ts'
import type { ConversationEvidence } from './evidence.ts'
import type { ObserverFacts } from './observer-call.ts'
import type { ConversationRelay } from './relay.ts'
import type { LiveCompletionPolicy } from './result.ts'
import type { LiveCallRules } from './rules.ts'
import type { CallerBackendWatch } from './validity.ts'

export interface CallLoop {
  mode: ClockMode
  clock: MediaClock
  streams: ClockedStream[]
  timeline: SessionTimeline
  relay: ConversationRelay
  evidence: ConversationEvidence
  drain: CompletionDrain
  observer: CompletionObserver | null
  observerFacts: ObserverFacts
  watch: CallerBackendWatch
  assistant: AssistantUnderTest
  delegationIds: readonly string[]
  executionTimes: Map<string, number>
  /**
   * Delegations seen finished, not asked again every step (the responses architecture copies its whole record
   * to answer); an id created again is asked again. `seen` counts the delegation ids looked at so far.
   */
  finishedDelegations: { ids: Set<string>; seen: number }
  rules: LiveCallRules
  /** What the last step found; shared with the evidence, which reads it rather than asking again. */
  work: StepWork
  assistantFirst: boolean
  /** At media time `nowMs`, whether a replayed caller is done and why (always null for a live caller). */
  recordedCallerDone: (nowMs: number) => ReplayedCallerSignal | null
  /** After every step's record; a promise it returns is awaited before the next step's frame goes out. */
  afterStep?: ((nowMs: number) => Promise<void> | undefined) | undefined
}

export interface StepWork {
  assistantBusy: boolean
  executionCount: number
}

export interface PlayedLoop {
  termination: 'response_completed' | 'duration_limit'
  policy: LiveCompletionPolicy
}

/**
 * One media clock step, and the record of what it brought: completion times of new tool executions, settled
 * delegations, and whether delegated work is still running (read once here: the rest of the tick uses it).
 */
async function step(loop: CallLoop): Promise<number> {
  await loop.clock.step(loop.streams)
  const nowMs = loop.timeline.nowMs()
  // The records (a deep copy) only when there are new ones: the log only grows.
  const count = loop.assistant.tools.executionCount()
  if (count !== loop.work.executionCount) {
    for (const record of loop.assistant.tools.executions()) {
      const id = record.call_id ?? `${record.name}#${loop.executionTimes.size}`
      if (!loop.executionTimes.has(id)) loop.executionTimes.set(id, nowMs)
    }
  }
  loop.work.executionCount = count
  loop.work.assistantBusy = false
  const finished = loop.finishedDelegations
  for (; finished.seen < loop.delegationIds.length; finished.seen++) {
    finished.ids.delete(loop.delegationIds[finished.seen] as string)
  }
  for (const id of loop.delegationIds) {
    if (finished.ids.has(id)) continue
    if (loop.assistant.delegationFinished(id)) {
      finished.ids.add(id)
      loop.timeline.delegationSettled(id, nowMs)
    } else {
      loop.work.assistantBusy = true
    }
  }
  await loop.afterStep?.(nowMs)
  return nowMs
}

/** §6's openings; throws the opening failure, else returns where the duration limit counts from (or null yet). */
function checkOpening(loop: CallLoop, nowMs: number): number | null {
  const callerFirstVoice = loop.relay.callerTrack.firstVoiceMs
  const deadline = loop.rules.openingDeadlineMs
  if (!loop.assistantFirst) {
    if (callerFirstVoice === null && nowMs >= deadline) {
      throw new LiveRunError(
        'caller_simulation',
        'caller_opening',
        `the caller did not speak within ${deadline} ms of being asked to open the call`,
      )
    }
    return 0
  }
  const greeting = loop.relay.assistantTrack.firstVoiceMs
  if (callerFirstVoice !== null && (greeting === null || callerFirstVoice < greeting)) {
    throw new LiveRunError(
      'caller_simulation',
      'assistant_opening',
      `the caller spoke at ${callerFirstVoice} ms, before the assistant's greeting`,
    )
  }
  if (greeting === null && nowMs >= deadline) {
    throw new LiveRunError(
      'response_collection',
      'assistant_opening',
      `the assistant did not greet the caller within ${deadline} ms of the opening prompt`,
    )
  }
  return greeting
}

/**
 * The fallback policy's signal: the caller's last words are a farewell and the expected state is verified. Like
 * the observer, it judges only current evidence (a farewell still being captioned is not yet a closing).
 */
function naturalClosing(loop: CallLoop, nowMs: number): boolean {
  const last = loop.evidence.lastLine('user')
  return (
    last !== null && isFarewell(last.text) && loop.evidence.stateVerified && loop.evidence.isCurrent(nowMs)
  )
}

export async function playCall(loop: CallLoop): Promise<PlayedLoop> {
  const { drain, evidence, observer } = loop
  let captionsSeen = 0
  let policy: LiveCompletionPolicy =
    observer === null ? 'verified_outcome_and_natural_closing' : 'semantic_conversation_observer'
  for (;;) {
    const nowMs = await step(loop)
    const startMs = checkOpening(loop, nowMs)
    if (startMs !== null && nowMs - startMs >= loop.rules.maxDurationMs) {
      return { termination: 'duration_limit', policy }
    }
    // A replayed caller that is done (silenced at a departure, or played out: only once it has spoken, since before
    // that the opening rules hold) says nothing more. What is left is the assistant's reaction, which the drain
    // waits for (its work settled, its speech heard, the call quiet) with nothing revoking it; nor is the observer
    // asked again.
    const callerDone = loop.relay.callerTrack.firstVoiceMs === null ? null : loop.recordedCallerDone(nowMs)
    if (callerDone !== null) drain.callerFinished(callerDone, nowMs)
    // Caller speech revokes a drain whichever shows first: its voice in the relay or its caption.
    for (const onset of loop.relay.callerTrack.takeOnsets()) drain.callerSpoke(onset)
    const captions = loop.timeline.transcripts
    for (; captionsSeen < captions.length; captionsSeen++) {
      const caption = captions[captionsSeen]
      if (caption?.role === 'user') drain.callerSpoke(caption.startMs ?? caption.receivedAtMs)
    }
    // New evidence, or the caller's backend still thinking, means the caller may not be done.
    if (evidence.refresh(loop.work.executionCount) || loop.watch.working) drain.evidenceChanged(nowMs)
    if (observer !== null && observer.failure === null && callerDone === null) {
      const signal = observer.takeSignal(evidence.moment(nowMs))
      if (signal !== null) drain.observeSignal(signal, nowMs)
      const pending = observer.consider(evidence.moment(nowMs), () => ({
        ...loop.observerFacts,
        ...evidence.observed(),
      }))
      // The virtual clock waits for the answer, so it lands at the audio position it was asked at.
      if (pending !== null && loop.mode === 'virtual') {
        await pending
        const answered = observer.takeSignal(evidence.moment(nowMs))
        if (answered !== null) drain.observeSignal(answered, nowMs)
      }
      if (observer.failure !== null) policy = 'verified_outcome_and_natural_closing'
    }
    if (policy === 'verified_outcome_and_natural_closing' && naturalClosing(loop, nowMs)) {
      drain.observeSignal('verified_outcome_and_natural_closing', nowMs)
    }
    const lastVoices = [loop.relay.callerTrack.lastVoiceEndMs, loop.relay.assistantTrack.lastVoiceEndMs]
    const voiced = lastVoices.filter((ms): ms is number => ms !== null)
    const ready = drain.ready({
      nowMs,
      lastVoiceMs: voiced.length === 0 ? null : Math.max(...voiced),
      assistantBusy: loop.work.assistantBusy,
      bufferedSpeech: loop.relay.bufferedSpeech,
      evidenceCurrent: evidence.isCurrent(nowMs),
    })
    if (ready) return { termination: 'response_completed', policy }
  }
}

/** After the loop: keeps the clock running until both sides' delegated work settled; true when it did. */
export async function settleWork(loop: CallLoop): Promise<{ assistantSettled: boolean }> {
  const graceEnd = loop.timeline.nowMs() + loop.rules.workGraceMs
  while ((loop.work.assistantBusy || loop.watch.working) && loop.timeline.nowMs() < graceEnd) await step(loop)
  return { assistantSettled: !loop.work.assistantBusy }
}
