// The row's fault record from what a session observed: the tool runtime's injections (on each execution) and
// what the session's faults logged on the other planes (faults/session.ts), as one time-ordered list.
import type { ToolExecution } from '../observability/observation.ts'
import { type FaultEvent, type FaultsRecord, faultEvent, faultsRecord } from './events.ts'
import type { SessionFaults } from './session.ts'

/** The record, or null when the session ran clean. Backend faults noted without a delegation id get theirs here. */
export function observedFaults(
  faults: SessionFaults | null,
  executions: readonly Pick<ToolExecution, 'call_id' | 'name' | 'completed_at_ms' | 'fault'>[],
  delegationIds: readonly string[],
): FaultsRecord | null {
  if (faults === null) return null
  const tool: FaultEvent[] = executions.flatMap((execution) => {
    const { fault } = execution
    if (fault === undefined) return []
    return [
      faultEvent({
        kind: fault.kind,
        target: execution.name,
        index: fault.call_index,
        at_ms: execution.completed_at_ms,
        call_id: execution.call_id,
        ...(fault.delay_s === undefined ? {} : { delay_ms: fault.delay_s * 1000 }),
        ...(fault.changed === undefined ? {} : { changed: fault.changed }),
      }),
    ]
  })
  const unique = [...new Set(delegationIds)]
  const other = faults.events().map((event) => {
    if (event.plane !== 'backend' || event.delegation_id !== undefined) return event
    const delegationId = unique[event.index]
    return delegationId === undefined ? event : { ...event, delegation_id: delegationId }
  })
  return faultsRecord(faults.profile, faults.source, [...tool, ...other])
}
