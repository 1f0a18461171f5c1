// The scheduled-interventions sidecar (issue 13, beyond the reference): caller barge-ins and backchannels a
// RUN spec schedules per scenario, on the media clock or on a condition. Schema-1.0 scenario files forbid
// extra keys, so the schedule lives in its own file, keyed by scenario id:
//
//   { "schema_version": "1.0",
//     "interventions": { "run_001_booking_complete": [
//       { "id": "cut-in", "kind": "barge_in", "text": "Sorry, one more thing.",
//         "trigger": { "while_assistant_speaking_ms": 1500, "after_caller_line": 1 } },
//       { "id": "ack", "kind": "backchannel", "text": "Mm-hmm.", "trigger": { "at_ms": 12000 } } ] } }
//
// A trigger is either a time on the media clock (`at_ms`, from the start of the call) or a condition: the
// assistant's `occurrence`-th uninterrupted stretch of voice (default the first) that starts after the caller's
// scripted line `after_caller_line` ended (0 is the opening; default the start of the call) has lasted
// `while_assistant_speaking_ms`. The caller says the words at the first media-clock step at or after the cue.
import { z } from 'zod'

export const INTERVENTIONS_SCHEMA_VERSION = '1.0'

export const INTERVENTION_KINDS = ['barge_in', 'backchannel'] as const
export type InterventionKind = (typeof INTERVENTION_KINDS)[number]

/** An acknowledgement is a few words ("Mm-hmm.", "Right, got it."); anything longer is a barge-in. */
export const BACKCHANNEL_MAX_WORDS = 4
const MAX_TEXT_CHARACTERS = 500
/** Far above any real schedule (a call holds a handful of interventions). */
export const MAX_INTERVENTIONS_PER_SCENARIO = 100

// Messages come from the dataset contract's wording (scenarios/violations.ts problemsOfIssue), except where a
// rule is ours.
const nonNegativeInteger = () => z.number().int().nonnegative()
const positiveInteger = () => z.number().int().positive()

const TriggerFieldsSchema = z.strictObject({
  at_ms: nonNegativeInteger().optional(),
  while_assistant_speaking_ms: positiveInteger().optional(),
  occurrence: positiveInteger().optional(),
  after_caller_line: nonNegativeInteger().optional(),
})

export type InterventionTrigger =
  | { type: 'at'; at_ms: number }
  | { type: 'while_assistant_speaking'; ms: number; occurrence: number; after_caller_line: number | null }

// One object with exactly one of the two trigger fields, checked by hand so a mistake is reported on the
// field that is wrong (a union of two strict objects would only say "no variant matched").
export const InterventionTriggerSchema = TriggerFieldsSchema.transform((fields, ctx): InterventionTrigger => {
  const { at_ms, while_assistant_speaking_ms: speaking, occurrence, after_caller_line } = fields
  if ((at_ms === undefined) === (speaking === undefined)) {
    ctx.addIssue({
      code: 'custom',
      message:
        'needs exactly one of "at_ms" (a media-clock time) or "while_assistant_speaking_ms" (a condition)',
    })
    return z.NEVER
  }
  if (at_ms !== undefined) {
    for (const key of ['occurrence', 'after_caller_line'] as const) {
      if (fields[key] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'applies only to a "while_assistant_speaking_ms" condition, not to "at_ms"',
        })
      }
    }
    return { type: 'at', at_ms }
  }
  return {
    type: 'while_assistant_speaking',
    ms: speaking as number,
    occurrence: occurrence ?? 1,
    after_caller_line: after_caller_line ?? null,
  }
})

export const InterventionSchema = z
  .strictObject({
    id: z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, {
      error: 'must be 1-64 letters, digits, "_", "." or "-", starting with a letter or digit',
    }),
    kind: z.enum(INTERVENTION_KINDS),
    /** What the caller says. */
    text: z.string().trim().min(1).max(MAX_TEXT_CHARACTERS),
    trigger: InterventionTriggerSchema,
  })
  .superRefine((intervention, ctx) => {
    const words = intervention.text.split(/\s+/).length
    if (intervention.kind === 'backchannel' && words > BACKCHANNEL_MAX_WORDS) {
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: `a backchannel is a short acknowledgement of at most ${BACKCHANNEL_MAX_WORDS} words (got ${words}); use "barge_in" for anything the assistant should answer`,
      })
    }
  })
export type Intervention = z.infer<typeof InterventionSchema>

export const ScenarioInterventionsSchema = z
  .array(InterventionSchema)
  .max(MAX_INTERVENTIONS_PER_SCENARIO)
  .superRefine((interventions, ctx) => {
    const seen = new Set<string>()
    interventions.forEach((intervention, index) => {
      if (seen.has(intervention.id)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: `duplicate intervention id "${intervention.id}" (ids must be unique within a scenario)`,
        })
      }
      seen.add(intervention.id)
    })
  })
