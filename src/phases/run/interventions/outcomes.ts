// What each scheduled intervention tested, measured on the observed call's timeline with the same rule as the
// barge-ins found after the fact (turn-metrics.ts yieldOutcomes): one said while the assistant was silent
// (under 300 ms of voice in the second before the cue) is unexercised, never a pass; for an exercised barge-in,
// whether the assistant yielded and how fast. A backchannel is not a request, so nothing is asked of the
// assistant but to carry on: its outcome says only whether it overlapped the assistant's speech.
import { z } from 'zod'
import type { Interval } from '../../../metrics/intervals.ts'
import type { PlannedUtterance } from '../offline-caller.ts'
import { yieldOutcomes } from '../turn-metrics.ts'
import type { UnsaidReason } from './agenda.ts'
import { INTERVENTION_KINDS, type Intervention } from './schema.ts'

export const UNEXERCISED_REASONS = [
  /** Said, but the assistant had under 300 ms of voice in the second before the cue. */
  'assistant_silent',
  /** Never said: its cue came before the caller's opening. */
  'before_opening',
  /** Never said: its cue came while the caller was saying another line (it does not talk over itself). */
  'caller_speaking',
  /** Never said: the call ended first (goodbye said, maximum duration, or the condition never held). */
  'call_ended',
] as const

export const InterventionOutcomeSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(INTERVENTION_KINDS),
  /** When the caller started saying it, on the media clock; null when it was never said. */
  cue_ms: z.number().nonnegative().nullable(),
  /** When the caller finished saying it; null when it was never said. */
  end_ms: z.number().nonnegative().nullable(),
  exercised: z.boolean(),
  /** Exercised barge-ins only: the assistant stopped within the yield window. Null otherwise. */
  yielded: z.boolean().nullable(),
  /** Yielded barge-ins only: from the cue to the end of the assistant's voice. Null otherwise. */
  yield_latency_ms: z.number().nonnegative().nullable(),
  /** Null when exercised. */
  unexercised_reason: z.enum(UNEXERCISED_REASONS).nullable(),
})
export type InterventionOutcome = z.infer<typeof InterventionOutcomeSchema>

/** The outcome of an intervention said from `cueMs` to `endMs`, against the assistant's voiced audio. */
export function measuredOutcome(
  intervention: Pick<Intervention, 'id' | 'kind'>,
  cueMs: number,
  endMs: number,
  assistantVoiced: readonly Interval[],
): InterventionOutcome {
  const [measured] = yieldOutcomes([cueMs], assistantVoiced)
  const exercised = measured?.exercised ?? false
  const bargeIn = intervention.kind === 'barge_in' && exercised
  return InterventionOutcomeSchema.parse({
    id: intervention.id,
    kind: intervention.kind,
    cue_ms: cueMs,
    end_ms: endMs,
    exercised,
    yielded: bargeIn ? (measured?.yielded ?? null) : null,
    yield_latency_ms: bargeIn ? (measured?.yield_latency_ms ?? null) : null,
    unexercised_reason: exercised ? null : 'assistant_silent',
  })
}

export function unsaidOutcome(
  intervention: Pick<Intervention, 'id' | 'kind'>,
  reason: UnsaidReason,
): InterventionOutcome {
  return {
    id: intervention.id,
    kind: intervention.kind,
    cue_ms: null,
    end_ms: null,
    exercised: false,
    yielded: null,
    yield_latency_ms: null,
    unexercised_reason: reason,
  }
}

/**
 * Every scheduled intervention's outcome, in the schedule's order: measured where the plan says it and the
 * call was still running, else the reason it was not said.
 */
export function interventionOutcomes(
  interventions: readonly Intervention[],
  plan: readonly PlannedUtterance[],
  unsaid: ReadonlyMap<string, UnsaidReason>,
  assistantVoiced: readonly Interval[],
  callEndedAtMs: number,
): InterventionOutcome[] {
  return interventions.map((intervention) => {
    const utterance = plan.find((planned) => planned.interventionId === intervention.id)
    if (utterance === undefined)
      return unsaidOutcome(intervention, unsaid.get(intervention.id) ?? 'call_ended')
    // Planned, but the call stopped before the caller got to it (its maximum duration).
    if (utterance.startMs >= callEndedAtMs) return unsaidOutcome(intervention, 'call_ended')
    return measuredOutcome(intervention, utterance.startMs, utterance.endMs, assistantVoiced)
  })
}
