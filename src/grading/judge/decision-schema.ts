// The structured answer a Responses judge must give: the schema is the text format of the request, so the model is
// held to the five scores by the API and the SDK parses the answer with the same schema.

import { z } from 'zod'
import { RUBRIC_SCORES } from './score.ts'

export const JudgeDecisionSchema = z.strictObject({
  passed: z.boolean(),
  score: z.literal(RUBRIC_SCORES),
  rationale: z.string().min(1),
  evidence: z.array(z.string()),
  task_completed: z.boolean().nullable(),
})

export type JudgeDecision = z.infer<typeof JudgeDecisionSchema>

export const JUDGE_DECISION_SCHEMA_NAME = 'semantic_judgment'
