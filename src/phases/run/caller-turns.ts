// RUN's caller turns for the interaction metrics. Voice activity splits an utterance wherever the caller
// pauses, so one farewell ("Wonderful. Thanks so much. … Have a great day!") arrives as two voiced segments.
// The reference counts each segment as its own response opportunity; the first is then "missed" because the
// caller's own continuation is the "next eligible request", and its published RUN example reports a 75%
// response rate for a call where the assistant answered every turn.
//
// Our count: a caller segment that continues the caller's speech before the assistant said anything and before
// the earlier segment's response deadline passed is the same turn. Such a continuation can never make the
// assistant late (its deadline had not expired and it had no chance to take the floor), so splitting it only
// invents a miss. Segments separated by assistant speech, or by a silence longer than the deadline, stay
// separate turns, so a genuinely ignored request is still missed. Backchannels are never merged: they are
// not requests.

import { DEFAULT_RESPONSE_DEADLINE_MS } from '../../metrics/interaction.ts'
import type { Interval } from '../../metrics/intervals.ts'
import type { CallerTurn } from '../../metrics/response-opportunities.ts'

/** A merged turn's kind: a closing stays a closing when the caller ends on it; otherwise it asked for an answer. */
function mergedKind(earlier: CallerTurn['kind'], later: CallerTurn['kind']): CallerTurn['kind'] {
  return later === 'closing' ? 'closing' : earlier === 'request' || later === 'request' ? 'request' : later
}

export function mergeCallerContinuations(
  segments: readonly CallerTurn[],
  assistantVoiced: readonly Interval[],
  deadlineMs: number = DEFAULT_RESPONSE_DEADLINE_MS,
): CallerTurn[] {
  const sorted = [...segments].sort((a, b) => a.start_ms - b.start_ms)
  const onsets = assistantVoiced.map((voiced) => voiced.start_ms)
  const turns: CallerTurn[] = []
  for (const segment of sorted) {
    const previous = turns.at(-1)
    const continues =
      previous !== undefined &&
      previous.kind !== 'backchannel' &&
      segment.kind !== 'backchannel' &&
      segment.start_ms <= previous.end_ms + deadlineMs &&
      !onsets.some((onset) => onset >= previous.end_ms && onset <= segment.start_ms)
    if (previous !== undefined && continues) {
      turns[turns.length - 1] = {
        start_ms: previous.start_ms,
        end_ms: Math.max(previous.end_ms, segment.end_ms),
        kind: mergedKind(previous.kind, segment.kind),
      }
    } else {
      turns.push({ ...segment })
    }
  }
  return turns
}
