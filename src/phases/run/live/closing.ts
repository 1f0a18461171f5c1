// The end of a live call (§6): both sessions closed, each confirmed by `session.closed` with its usage, within
// the cleanup deadline. A close that does not finish in time is `cleanup_timeout` (the sessions are then shut
// down locally so nothing stays open); a session that ended without `session.closed` is `session_close`.
import { setTimeout as sleep } from 'node:timers/promises'
import type { AssistantUnderTest } from '../../../assistants/assistant-session.ts'
import type { LiveSession, LiveSessionOutcome } from '../../../live/index.ts'
import type { LiveFailureReason } from './errors.ts'

export interface ClosedParticipants {
  assistant: LiveSessionOutcome
  caller: LiveSessionOutcome
  failure: { reason: LiveFailureReason; message: string } | null
}

export async function closeParticipants(
  assistant: AssistantUnderTest,
  caller: LiveSession,
  cleanupTimeoutMs: number,
): Promise<ClosedParticipants> {
  const timer = new AbortController()
  const closing = Promise.all([assistant.close(), caller.close()])
  const deadline = sleep(cleanupTimeoutMs, 'timeout' as const, { signal: timer.signal }).catch(
    () => 'cancelled' as const,
  )
  const first = await Promise.race([closing, deadline])
  timer.abort()
  if (first === 'timeout' || first === 'cancelled') {
    const [assistantOutcome, callerOutcome] = await Promise.all([
      assistant.session.dispose(),
      caller.dispose(),
    ])
    return {
      assistant: assistantOutcome,
      caller: callerOutcome,
      failure: {
        reason: 'cleanup_timeout',
        message: `the sessions did not close within the cleanup deadline (${cleanupTimeoutMs} ms)`,
      },
    }
  }
  const [assistantOutcome, callerOutcome] = first
  const unconfirmed = [
    ['assistant', assistantOutcome],
    ['caller', callerOutcome],
  ].filter(([, outcome]) => (outcome as LiveSessionOutcome).type !== 'closed')
  return {
    assistant: assistantOutcome,
    caller: callerOutcome,
    failure:
      unconfirmed.length === 0
        ? null
        : {
            reason: 'session_close',
            message: `no session.closed from the ${unconfirmed.map(([side]) => side).join(' and ')} session`,
          },
  }
}
