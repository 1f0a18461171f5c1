// The event trace of a RUN call (events/<id>.jsonl), built after the call from the assistant session's own log:
// the session start we sent, every event received with its time on the session clock, and the evaluator's
// events (each caller utterance with its action, how the call ended). Offline the frames we sent are the caller's
// audio and are not kept (the trace drops raw audio anyway); the start frame carries the session's configuration.
import type { SessionTrace } from '../../observability/trace.ts'
import type { PlayedConversation } from './observed.ts'

export function traceOfCall(played: PlayedConversation, trace: SessionTrace): SessionTrace {
  const session = played.call.assistant.session
  const startSent = session.startSent
  if (startSent !== undefined) trace.add('client', 'sent', startSent.sentAtMs, startSent.event)
  for (const received of session.log.events) {
    trace.add('server', 'received', received.receivedAtMs, received.event, received.outputAudioBytes)
  }
  for (const utterance of played.plan) {
    trace.addEvaluation('simulator.caller.utterance', utterance.startMs, {
      action: utterance.action,
      text: utterance.text,
      end_ms: utterance.endMs,
    })
  }
  trace.addEvaluation('simulator.completion.finished', played.call.endedAtMs, {
    termination_reason: played.termination_reason,
    finish_observed_ms: played.finish_observed_ms,
    signal: played.completion_signal,
    policy: played.completion_policy,
    drain_revocations: played.drain_revocations.length,
  })
  return trace
}
