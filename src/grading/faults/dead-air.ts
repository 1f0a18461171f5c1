// Check `dead_air_while_pending` (issue 22): while the assistant's work is pending (a delegation from its start
// until its answer reached the voice model), the caller must never sit in silence, hearing neither the assistant
// nor itself, for longer than grading.max_dead_air_ms. Measured on what the caller heard (RUN: the assistant's
// voice through the line, faults included). Reported only: timing depends on the line and the load, live above
// all, so it does not decide task_completed.
import type { OutcomeCheck } from '../outcome.ts'
import type { FaultCheckInput } from './input.ts'
import { longestUncovered } from './intervals.ts'

export const DEAD_AIR_CHECK_ID = 'dead_air_while_pending'

export function deadAirCheck(input: FaultCheckInput): OutcomeCheck {
  const experience = input.experience ?? null
  const limit = input.max_dead_air_ms
  if (experience === null) {
    return {
      id: DEAD_AIR_CHECK_ID,
      status: 'not_assessed',
      required: false,
      reason: 'the observation does not say when work was pending',
      evidence: {},
    }
  }
  const pending = experience.work_pending_ms.filter((span) => span.end_ms > span.start_ms)
  if (pending.length === 0) {
    return {
      id: DEAD_AIR_CHECK_ID,
      status: 'not_applicable',
      required: false,
      reason: 'no work was pending',
      evidence: { max_dead_air_ms: limit },
    }
  }
  const heard = [...experience.assistant_heard_ms, ...experience.caller_voiced_ms]
  const spans = pending.map((span) => ({ ...span, longest: longestUncovered(span, heard) }))
  const worst = spans.reduce((a, b) => (b.longest.ms > a.longest.ms ? b : a))
  const over = spans.filter((span) => span.longest.ms > limit)
  return {
    id: DEAD_AIR_CHECK_ID,
    status: over.length === 0 ? 'passed' : 'failed',
    required: false,
    reason:
      over.length === 0
        ? `the caller never waited in silence longer than ${limit} ms while work was pending`
        : `the caller sat in silence for ${Math.round(worst.longest.ms)} ms at ${Math.round(worst.longest.start_ms)} ms while work was pending (limit ${limit} ms)`,
    evidence: {
      max_dead_air_ms: limit,
      longest_ms: worst.longest.ms,
      longest_at_ms: worst.longest.start_ms,
      pending: spans.map((span) => ({
        start_ms: span.start_ms,
        end_ms: span.end_ms,
        longest_silence_ms: span.longest.ms,
      })),
    },
  }
}
