import { z } from 'zod'
import { artifactIdProblem } from '../artifacts/ids.ts'
import { ExpectedOutcomeSchema } from './expected.ts'
import { JsonObjectSchema, listOf, nonEmptyString } from './json-object.ts'
import { quoteText } from './quote.ts'
import { SimulationParametersSchema } from './simulation.ts'
import { EACH, whenParsed } from './when-parsed.ts'

// One scenario of the schema 1.0 contract: field shapes, defaults and every rule that ties fields together.

/** Ids name artifact files and folders, so a bad id is rejected with its reason, never rewritten. */
export const artifactIdSchema = (what: string) =>
  z.string().superRefine((id, ctx) => {
    const problem = artifactIdProblem(id)
    if (problem) ctx.addIssue({ code: 'custom', message: `${what} ${quoteText(id)} ${problem}` })
  })

export const AUDIO_CONDITIONS = [
  'clean',
  'noisy',
  'telephony',
  'background_speech',
  'echo',
  'packet_loss',
  'realistic',
] as const
export const AudioConditionSchema = z.enum(AUDIO_CONDITIONS)
export type AudioCondition = z.infer<typeof AudioConditionSchema>

export const RecordingSchema = z.strictObject({
  // Any non-empty text, as the reference contract allows: recording ids only need to be unique within their
  // scenario, and artifacts are named after the scenario id, never the recording id.
  id: nonEmptyString(),
  // Relative to the dataset file, never to the working directory (the loader resolves it).
  path: nonEmptyString(),
  condition: AudioConditionSchema.default('clean'),
  metadata: JsonObjectSchema.default(() => ({})),
})
export type Recording = z.infer<typeof RecordingSchema>

export const HistoryMessageSchema = z.strictObject({
  role: z.enum(['user', 'assistant']),
  text: nonEmptyString(),
})
export type HistoryMessage = z.infer<typeof HistoryMessageSchema>

export const ConversationContextSchema = z
  .strictObject({
    summary: z.string().default(''),
    history: listOf(HistoryMessageSchema).default(() => []),
  })
  .superRefine(
    (context, ctx) => {
      if (context.summary.trim() === '' && context.history.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'conversation context requires a summary or prior history' })
      }
    },
    { when: whenParsed(['summary'], ['history']) },
  )
export type ConversationContext = z.infer<typeof ConversationContextSchema>

export const ScenarioInputSchema = z
  .strictObject({
    text: nonEmptyString(),
    recordings: listOf(RecordingSchema).default(() => []),
    context: ConversationContextSchema.nullable().default(null),
  })
  .superRefine(
    (input, ctx) => {
      const seen = new Set<string>()
      input.recordings.forEach((recording, index) => {
        if (seen.has(recording.id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['recordings', index, 'id'],
            message: `recording ids must be unique within a scenario; ${quoteText(recording.id)} repeats`,
          })
        }
        seen.add(recording.id)
      })
    },
    { when: whenParsed(['recordings', EACH, 'id']) },
  )
export type ScenarioInput = z.infer<typeof ScenarioInputSchema>

export const ApplicationSchema = z.strictObject({
  initial_state: JsonObjectSchema.default(() => ({})),
})

export const InteractionSchema = z.enum(['single_turn', 'multi_turn'])
export type Interaction = z.infer<typeof InteractionSchema>

const SINGLE_TURN_PATH = 'a single-turn golden path is one caller request and one assistant response'

export const ScenarioSchema = z
  .strictObject({
    id: artifactIdSchema('scenario id'),
    title: nonEmptyString(),
    type: nonEmptyString().nullable().default(null),
    interaction: InteractionSchema,
    tags: listOf(z.string()).default(() => []),
    input: ScenarioInputSchema,
    application: ApplicationSchema.prefault({}),
    expected: ExpectedOutcomeSchema,
    simulation_parameters: SimulationParametersSchema.nullable().default(null),
  })
  // Each cross-field rule runs once the fields it reads parsed, so a bad field elsewhere hides none of them.
  .superRefine(
    (scenario, ctx) => {
      // Only presence matters here, so the parameters' own problems (reported inside them) do not block it.
      const hasParameters = scenario.simulation_parameters !== null
      if (scenario.interaction === 'single_turn' && hasParameters) {
        ctx.addIssue({
          code: 'custom',
          path: ['simulation_parameters'],
          message: 'single-turn scenarios must not define simulation parameters or a caller persona',
        })
      }
      if (scenario.interaction === 'multi_turn' && !hasParameters) {
        ctx.addIssue({
          code: 'custom',
          path: ['simulation_parameters'],
          message: 'multi-turn scenarios require simulation parameters and a caller persona',
        })
      }
    },
    { when: whenParsed(['interaction']) },
  )
  .superRefine(
    (scenario, ctx) => {
      if (scenario.interaction !== 'single_turn') return
      const goldenPath = scenario.expected.golden_path
      if (goldenPath.turns !== 0 && goldenPath.turns !== 2) {
        ctx.addIssue({
          code: 'custom',
          path: ['expected', 'golden_path', 'turns'],
          message: `${SINGLE_TURN_PATH}: turns must be 0 or 2, got ${goldenPath.turns}`,
        })
      }
      if (goldenPath.steps.length > 2) {
        ctx.addIssue({
          code: 'custom',
          path: ['expected', 'golden_path', 'steps'],
          message: `${SINGLE_TURN_PATH}: at most 2 steps, got ${goldenPath.steps.length}`,
        })
      }
    },
    { when: whenParsed(['interaction'], ['expected', 'golden_path']) },
  )
  .superRefine(
    (scenario, ctx) => {
      if (scenario.interaction === 'single_turn' && scenario.expected.procedure !== null) {
        ctx.addIssue({
          code: 'custom',
          path: ['expected', 'procedure'],
          message: 'single-turn scenarios must not define a procedure; procedures are graded only in RUN',
        })
      }
    },
    { when: whenParsed(['interaction'], ['expected', 'procedure']) },
  )
  .superRefine(
    (scenario, ctx) => {
      if (scenario.interaction === 'multi_turn' && scenario.input.recordings.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['input', 'recordings'],
          message: 'recorded multi-turn interactions require a live human caller',
        })
      }
    },
    { when: whenParsed(['interaction'], ['input', 'recordings']) },
  )
export type Scenario = z.infer<typeof ScenarioSchema>
