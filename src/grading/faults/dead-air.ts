// Check `dead_air_while_pending` (issue 22): while the assistant's work is pending (a delegation from its start
// until its answer reached the voice model), the caller must never sit in silence waiting for the assistant,
// hearing neither the assistant nor itself, for longer than grading.max_dead_air_ms. Measured on what the caller
// heard (RUN: the assistant's voice through the line, faults included). Reported only: timing depends on the line
// and the load, live above all, so it does not decide task_completed.
//
// Not every silence while work is pending is dead air for the caller:
// - after the assistant asked the caller a question (not a hold request such as "could you hold on?"), the
//   silence is the caller's own turn to speak;
// - after the call's last voice nobody is waiting: work never answered stays pending to the end of the recording,
//   but the goodbye and the hang-up are not a wait.
// The silences left out as the caller's turn are listed in the evidence, so a reader can see what was not counted.
import type { Interval } from '../../faults/experience.ts'
import type { OutcomeCheck } from '../outcome.ts'
import { sentences } from './false-confirmation.ts'
import type { FaultCheckInput } from './input.ts'
import { type Gap, longestGap, uncoveredGaps } from './intervals.ts'
import { isProgressStatement } from './progress.ts'

export const DEAD_AIR_CHECK_ID = 'dead_air_while_pending'

/** The latest interval that ended by `atMs`, or null. */
function lastEndedBy(intervals: readonly Interval[], atMs: number): Interval | null {
  let last: Interval | null = null
  for (const interval of intervals) {
    if (interval.end_ms <= atMs && (last === null || interval.end_ms > last.end_ms)) last = interval
  }
  return last
}

/** True when the last thing the caller heard before `gap` was the assistant asking it something. */
function isCallersTurn(
  gap: Gap,
  input: FaultCheckInput,
  heard: readonly Interval[],
  voiced: readonly Interval[],
) {
  const assistant = lastEndedBy(heard, gap.start_ms)
  const caller = lastEndedBy(voiced, gap.start_ms)
  if (assistant === null || (caller !== null && caller.end_ms >= assistant.end_ms)) return false
  const line = input.transcript
    .filter(
      (entry) => entry.role === 'assistant' && entry.start_ms !== null && entry.start_ms <= gap.start_ms,
    )
    .at(-1)
  const last = line === undefined ? undefined : sentences(line.text).at(-1)?.trim()
  return last?.endsWith('?') === true && !isProgressStatement(last)
}

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
  const heard = experience.assistant_heard_ms
  const voiced = experience.caller_voiced_ms
  const lastVoiceMs = Math.max(...[...heard, ...voiced].map((interval) => interval.end_ms))
  const pending = experience.work_pending_ms
    .map((span) => ({ start_ms: span.start_ms, end_ms: Math.min(span.end_ms, lastVoiceMs) }))
    .filter((span) => span.end_ms > span.start_ms)
  if (pending.length === 0) {
    return {
      id: DEAD_AIR_CHECK_ID,
      status: 'not_applicable',
      required: false,
      reason:
        experience.work_pending_ms.length === 0
          ? 'no work was pending'
          : 'no work was pending before the call’s last voice (nobody was waiting on it)',
      evidence: { max_dead_air_ms: limit },
    }
  }
  const callersTurn: Gap[] = []
  const spans = pending.map((span) => {
    const waited = uncoveredGaps(span, [...heard, ...voiced]).filter((gap) => {
      const theirs = isCallersTurn(gap, input, heard, voiced)
      if (theirs) callersTurn.push(gap)
      return !theirs
    })
    return { ...span, longest: longestGap(waited, span.start_ms) }
  })
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
      callers_turn: callersTurn,
    },
  }
}
