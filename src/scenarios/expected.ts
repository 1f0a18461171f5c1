import { z } from 'zod'
import {
  type JsonObjectInput,
  JsonObjectSchema,
  listOf,
  nonEmptyString,
  withInputType,
} from './json-object.ts'
import { quoteText } from './quote.ts'
import { EACH, whenParsed } from './when-parsed.ts'

// `expected`: the evaluator-only outcome of a scenario. Nothing here may reach the assistant under test
// (see visible.ts); graders and the judge read it.

// 'failed' is ours (the reference knows 'any' and 'completed'): it lets a scenario expect a refusal.
export const ToolCallStatusSchema = z.enum(['any', 'completed', 'failed'])

export const ExpectedToolCallSchema = z.strictObject({
  name: nonEmptyString(),
  arguments: JsonObjectSchema.default(() => ({})),
  status: ToolCallStatusSchema.default('completed'),
})

/**
 * One expected tool call as a scenario writes it (`expected.tools.required` / `prohibited`). Written out so that its
 * documentation reaches the published .d.ts; a test checks that it is exactly the schema's input type.
 */
export interface ExpectedToolCallInput {
  /** The tool's name, as the assistant's tools define it. */
  name: string
  /** The arguments that matter, matched as a subset of the call's (none: any call of that name). */
  arguments?: JsonObjectInput
  /**
   * Which executions of the call count (default `'completed'`). A tool that refuses a call (its `execute` throws)
   * leaves a failed execution: `'failed'` expects exactly that refusal, `'any'` accepts it or a completed call.
   * A required call with `'completed'` is not met by a refusal, and a refusal nobody expected fails the tool
   * contract. For a prohibited call (CRAWL/WALK), `'completed'` counts only calls that went through, `'failed'`
   * only refused attempts, `'any'` both; RUN counts a prohibited attempt whatever its status.
   */
  status?: z.input<typeof ToolCallStatusSchema>
}
export type ExpectedToolCall = z.infer<typeof ExpectedToolCallSchema>

export const ExpectedToolsSchema = z.strictObject({
  // Ordered: the required calls are graded as a sequence.
  required: withInputType<readonly ExpectedToolCallInput[]>()(listOf(ExpectedToolCallSchema)).default(
    () => [],
  ),
  prohibited: withInputType<readonly ExpectedToolCallInput[]>()(listOf(ExpectedToolCallSchema)).default(
    () => [],
  ),
})
export type ExpectedTools = z.infer<typeof ExpectedToolsSchema>

export const GoldenPathSchema = z
  .strictObject({
    turns: z.number().int().min(0).default(0),
    // Reference count of frontend-to-backend handoffs over the whole scenario; null = not stated.
    delegations: z.number().int().min(0).nullable().default(null),
    steps: listOf(z.string()).default(() => []),
  })
  // A path written only as steps counts one turn per step.
  .transform((path) =>
    path.turns === 0 && path.steps.length > 0 ? { ...path, turns: path.steps.length } : path,
  )
export type GoldenPath = z.infer<typeof GoldenPathSchema>

export const DelegationPolicySchema = z.enum(['required', 'forbidden', 'optional'])
export type DelegationPolicy = z.infer<typeof DelegationPolicySchema>

export const SopStepKindSchema = z.enum([
  'clarification',
  'tool',
  'correction',
  'authorization',
  'state',
  'grounded_confirmation',
  'refusal',
])

export const SopStepSchema = z
  .strictObject({
    id: nonEmptyString(),
    kind: SopStepKindSchema,
    tool: nonEmptyString().nullable().default(null),
    arguments: JsonObjectSchema.default(() => ({})),
    after: listOf(z.string()).default(() => []),
    required: z.boolean().default(true),
    critical: z.boolean().default(false),
  })
  .superRefine(
    (step, ctx) => {
      if (step.kind === 'tool' && !step.tool) {
        ctx.addIssue({
          code: 'custom',
          path: ['tool'],
          message: 'procedure steps of kind "tool" must name a tool',
        })
      }
      if (step.critical && !step.required) {
        ctx.addIssue({
          code: 'custom',
          path: ['critical'],
          message: 'critical procedure steps must be required',
        })
      }
    },
    { when: whenParsed(['kind'], ['tool'], ['required'], ['critical']) },
  )
export type SopStep = z.infer<typeof SopStepSchema>

export const ProcedureSchema = z
  .strictObject({
    id: nonEmptyString(),
    steps: listOf(SopStepSchema, 1),
  })
  .superRefine(
    (procedure, ctx) => {
      const earlier = new Set<string>()
      procedure.steps.forEach((step, index) => {
        if (earlier.has(step.id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['steps', index, 'id'],
            message: `duplicate procedure step id ${quoteText(step.id)}: step ids must be unique`,
          })
        }
        step.after.forEach((reference, afterIndex) => {
          if (!earlier.has(reference)) {
            ctx.addIssue({
              code: 'custom',
              path: ['steps', index, 'after', afterIndex],
              message: `procedure step ${quoteText(step.id)} may only come after earlier steps; ${quoteText(reference)} is not an earlier step id`,
            })
          }
        })
        earlier.add(step.id)
      })
    },
    { when: whenParsed(['steps', EACH, 'id'], ['steps', EACH, 'after']) },
  )
export type Procedure = z.infer<typeof ProcedureSchema>

export const ExpectedOutcomeSchema = z
  .strictObject({
    answer: nonEmptyString(),
    criteria: listOf(z.string()).default(() => []),
    tools: ExpectedToolsSchema.prefault({}),
    golden_path: GoldenPathSchema.prefault({}),
    // Groups of `a|b` alternatives; they only feed evidence coverage.
    diagnostic_terms: listOf(z.string()).default(() => []),
    delegation: DelegationPolicySchema.default('optional'),
    // Expected final application state; `{ "unchanged": true }` means "equal to the initial state".
    state: JsonObjectSchema.default(() => ({})),
    procedure: ProcedureSchema.nullable().default(null),
  })
  .superRefine(
    (expected, ctx) => {
      if (expected.delegation === 'forbidden' && expected.tools.required.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['tools', 'required'],
          message: 'a scenario cannot forbid delegation and require a tool',
        })
      }
    },
    { when: whenParsed(['delegation'], ['tools', 'required']) },
  )
export type ExpectedOutcome = z.infer<typeof ExpectedOutcomeSchema>
