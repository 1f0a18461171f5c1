// What the caller lived through, as the caller-experience checks read it (src/grading/faults): when the
// assistant's work was pending (a delegation from its start until its answer reached the voice model), when the
// caller heard the assistant's voice (RUN: through the line, faults included), and when the caller spoke.
// Built at the observe stage and kept in the observation, so a re-grade reads exactly what the run saw.
import { z } from 'zod'
import type { DelegationObservation } from '../assistants/architectures/index.ts'

export const IntervalSchema = z.strictObject({ start_ms: z.number(), end_ms: z.number() })
export type Interval = z.infer<typeof IntervalSchema>

export const CallerExperienceSchema = z.strictObject({
  /** Each delegation from its start until its answer (or its backend's failure) reached the voice model. */
  work_pending_ms: z.array(IntervalSchema),
  /** The assistant's voice as the caller heard it. */
  assistant_heard_ms: z.array(IntervalSchema),
  /** The caller's own voice. */
  caller_voiced_ms: z.array(IntervalSchema),
})
export type CallerExperience = z.infer<typeof CallerExperienceSchema>

/**
 * When each delegation's answer reached the voice model, by delegation id: Responses delegation's backend
 * message (or the failed response that ended it), client delegation's first accepted commentary. Absent: never.
 */
export function delegationAnswers(observation: DelegationObservation): Map<string, number> {
  const answers = new Map<string, number>()
  const note = (id: string | null, atMs: number | null) => {
    if (id === null || atMs === null) return
    answers.set(id, Math.min(answers.get(id) ?? atMs, atMs))
  }
  if (observation.architecture === 'responses') {
    const records = observation.records
    // The final message is the answer; a response that failed is the end of the work too.
    for (const message of records.backendMessages) note(message.delegationId, message.receivedAtMs)
    for (const usage of records.backendUsage) {
      if (usage.terminal !== 'response.completed') note(usage.delegationId, usage.receivedAtMs)
    }
    return answers
  }
  for (const chunk of observation.records.commentary) {
    if (chunk.status === 'accepted') note(chunk.delegationId, chunk.startMs)
  }
  return answers
}

/** Each delegation's pending span, from its start to its answer, or to `endMs` when none came. */
export function workPending(
  delegations: readonly { id: string; startMs: number }[],
  answers: ReadonlyMap<string, number>,
  endMs: number,
): Interval[] {
  return delegations.map((delegation) => ({
    start_ms: delegation.startMs,
    end_ms: Math.max(delegation.startMs, answers.get(delegation.id) ?? endMs),
  }))
}
