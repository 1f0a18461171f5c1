// The event trace of a RUN call (events/<id>.jsonl), built after the call from the assistant session's own log:
// the session start we sent, every event received with its time on the session clock, and the evaluator's
// events (each caller utterance with its action, how the call ended). Offline the frames we sent are the caller's
// audio and are not kept (the trace drops raw audio anyway); the start frame carries the session's configuration.
//
// A call that threw (an offline rule, a session that failed) keeps the same trace up to where it stopped: the
// events its session received, the caller utterances it had started, and the failure at the moment it stopped.
import type { AssistantUnderTest } from '../../assistants/assistant-session.ts'
import type { SessionTrace } from '../../observability/trace.ts'
import { stageFailureOf } from '../engine/stage.ts'
import type { PlayedConversation } from './observed.ts'
import type { PlannedUtterance } from './offline-caller.ts'
import type { CallInProgress } from './scripted-call.ts'

export function traceOfCall(played: PlayedConversation, trace: SessionTrace): SessionTrace {
  traceSession(played.call.assistant, played.plan, trace)
  trace.addEvaluation('simulator.completion.finished', played.call.endedAtMs, {
    termination_reason: played.termination_reason,
    finish_observed_ms: played.finish_observed_ms,
    signal: played.completion_signal,
    policy: played.completion_policy,
    drain_revocations: played.drain_revocations.length,
  })
  return trace
}

/**
 * The trace of a call that threw: what it received and said up to the moment it stopped, then the failure as the
 * row reports it (the call plays while the engine's stage is response_collection).
 */
export function traceOfFailedCall(call: CallInProgress, error: unknown, trace: SessionTrace): SessionTrace {
  const stoppedAtMs = call.nowMs()
  traceSession(
    call.assistant,
    call.plan.filter((utterance) => utterance.startMs < stoppedAtMs),
    trace,
  )
  trace.addEvaluation('simulator.call.failed', stoppedAtMs, {
    ...stageFailureOf(error, 'response_collection'),
  })
  return trace
}

function traceSession(
  assistant: AssistantUnderTest,
  plan: readonly PlannedUtterance[],
  trace: SessionTrace,
): void {
  const session = assistant.session
  const startSent = session.startSent
  if (startSent !== undefined) trace.add('client', 'sent', startSent.sentAtMs, startSent.event)
  for (const received of session.log.events) {
    trace.add('server', 'received', received.receivedAtMs, received.event, received.outputAudioBytes)
  }
  for (const utterance of plan) {
    trace.addEvaluation('simulator.caller.utterance', utterance.startMs, {
      action: utterance.action,
      text: utterance.text,
      end_ms: utterance.endMs,
    })
  }
}
