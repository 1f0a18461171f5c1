// Which models the assistant under test runs on. An input to the plan (from the phase settings), checked here
// so that a bad value fails while building the plan with the field's name, not as a server error mid-run.
import { z } from 'zod'
import { type ModelSettings, REASONING_EFFORTS, VERBOSITIES } from '../../config/schema.ts'

export const assistantModelsSchema = z.strictObject({
  /** The GPT-Live model of the voice frontend, e.g. `gpt-live-1`. */
  liveModel: z.string().trim().min(1),
  /** A built-in voice name (`marin`) or a custom voice id. */
  voice: z.string().trim().min(1),
  /** The delegated Responses model (Responses delegation) or the application's backend model (client). */
  backendModel: z.string().trim().min(1),
  backendReasoningEffort: z.enum(REASONING_EFFORTS),
  /** The service requires at least 16 when set. */
  backendMaxOutputTokens: z.number().int().min(16),
  backendVerbosity: z.enum(VERBOSITIES),
})
export type AssistantModels = z.infer<typeof assistantModelsSchema>

/** Validates model settings; the error names every bad field and says where the value comes from. */
export function parseAssistantModels(input: unknown): AssistantModels {
  const parsed = assistantModelsSchema.safeParse(input)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((issue) => `models.${issue.path.join('.')}: ${issue.message}`)
  throw new Error(
    `Invalid assistant model settings: ${problems.join('; ')}. Fix the [models] values in the phase settings.`,
  )
}

/** The assistant's models from a phase's resolved `models` settings. */
export function assistantModelsFromSettings(models: ModelSettings): AssistantModels {
  return parseAssistantModels({
    liveModel: models.live_model,
    voice: models.live_voice,
    backendModel: models.backend_model,
    backendReasoningEffort: models.backend_reasoning_effort,
    backendMaxOutputTokens: models.backend_max_output_tokens,
    backendVerbosity: models.backend_verbosity,
  })
}
