// Turns what the in-process delegation controller publishes into the contract's `assistant.event` payloads:
// the handoff under the contract's field names, tool results with the service's evidence (the state after the
// call and that call's execution record), everything a delegation publishes marked `_client_managed`, and
// every failure reduced to one fixed error, because a backend's message may carry secrets or internals.
import type { ToolRuntime } from '../../runtime/tool-runtime.ts'
import type { ObservationEvent } from '../backend/application-backend.ts'
import { BACKEND_WORK_FAILED } from './protocol/index.ts'

/** The only error a delegation's failure becomes on the wire: no message, no delegation id, no cause. */
export function sanitizedBackendError(): ObservationEvent {
  return { type: 'error', error: { ...BACKEND_WORK_FAILED } }
}

/** The delegation an observation belongs to, or null. */
export function delegationIdOf(event: ObservationEvent): string | null {
  const id = event.delegation_id
  return typeof id === 'string' && id !== '' ? id : null
}

/** The inner event of the `assistant.event` frame for one controller observation. */
export function assistantEventFor(event: ObservationEvent, runtime: ToolRuntime): ObservationEvent {
  if (event.type === 'error') return sanitizedBackendError()
  if (event.type === 'client_delegation.handoff') return handoffEvent(event)
  if (event.type === 'tool.completed' || event.type === 'tool.failed')
    return managed(withToolEvidence(event, runtime))
  return managed(event)
}

function managed(event: ObservationEvent): ObservationEvent {
  return { ...event, _client_managed: true }
}

/** The controller keeps the handoff as `{handoff: {task, transcript_srt, follow_up}}`; the wire has it flat. */
function handoffEvent(event: ObservationEvent): ObservationEvent {
  const handoff = (event.handoff ?? {}) as { task?: unknown; transcript_srt?: unknown; follow_up?: unknown }
  return managed({
    type: 'client_delegation.handoff',
    delegation_id: event.delegation_id,
    task: handoff.task,
    transcript: handoff.transcript_srt,
    follow_up: handoff.follow_up === true,
  })
}

/**
 * Adds the state after the call and the latest execution record with the event's call_id (the latest record
 * at all when the event names none, filling the call_id from it). Our backends publish a refused call as
 * `tool.completed` with `output: {ok: false, error}`; on the wire a failed record makes it `tool.failed` with
 * `error`, and a completed one carries its output as `result`.
 */
function withToolEvidence(event: ObservationEvent, runtime: ToolRuntime): ObservationEvent {
  const { output, ...shaped } = event
  const callId = typeof event.call_id === 'string' && event.call_id !== '' ? event.call_id : null
  const executions = runtime.executions()
  const record =
    callId === null ? executions.at(-1) : executions.findLast((execution) => execution.call_id === callId)
  if (record !== undefined) {
    shaped.tool_execution = record
    if (callId === null && record.call_id !== null) shaped.call_id = record.call_id
  }
  shaped.application_state = runtime.snapshot()
  if (record?.status === 'failed' && shaped.type === 'tool.completed') {
    const error = record.output.error
    return { ...shaped, type: 'tool.failed', error: typeof error === 'string' ? error : 'Tool call failed' }
  }
  if (output !== undefined && !('result' in shaped)) shaped.result = output
  return shaped
}
