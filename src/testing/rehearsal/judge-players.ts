// The semantic judge, in rehearsal: it cannot understand a conversation, so its answer is scripted, and says so.
// The answer is schema-valid (the judge's own JudgeDecisionSchema, the Decisions API's score shape), so the live
// judge path (request, structured parsing, aggregation, the row's semantic grades) runs as it does against the
// service. It finds every dimension fully satisfied: a judge pass never rescues a row that failed its
// deterministic checks (README: "no score rescues one that failed them"), so the rehearsal's verdicts are the
// deterministic ones; the rationale marks every such grade as scripted.
import { JUDGE_DECISION_SCHEMA_NAME, type JudgeDecision } from '../../grading/judge/decision-schema.ts'
import { structuredAnswer } from '../responses-server/responses-route.ts'
import type { DecisionsPlayer, ResponsesPlayer } from './players.ts'

export const SCRIPTED_JUDGMENT_RATIONALE =
  'Dress rehearsal: a scripted judgment from the local rehearsal server; no model judged this conversation.'

/** The label of the top anchor of the judge's score levels (rubric.ts), the level a scripted answer picks. */
const TOP_LEVEL = 'fully_satisfied'

/** Answers the Responses judge's structured requests (text format `semantic_judgment`). */
export const responsesJudgePlayer: ResponsesPlayer = {
  name: 'semantic judge (Responses)',
  answer(request) {
    const format = (request.text as { format?: { name?: unknown } } | undefined)?.format
    if (format?.name !== JUDGE_DECISION_SCHEMA_NAME) return null
    const judgment: JudgeDecision = {
      passed: true,
      score: 1,
      rationale: SCRIPTED_JUDGMENT_RATIONALE,
      evidence: [],
      task_completed: true,
    }
    return structuredAnswer(judgment)
  },
}

/** Answers the Decisions judge: every score question at its top level. */
export const decisionsJudgePlayer: DecisionsPlayer = {
  name: 'semantic judge (Decisions)',
  answer(request) {
    const answers: Record<string, { type: 'score'; probabilities: Record<string, number> }> = {}
    for (const [index, question] of request.questions.entries()) {
      if (question.type !== 'score') return null
      const labels = question.levels.map((level) => level.label)
      const top = labels.includes(TOP_LEVEL) ? TOP_LEVEL : (labels.at(-1) ?? TOP_LEVEL)
      answers[question.name ?? `#${index}`] = { type: 'score', probabilities: { [top]: 1 } }
    }
    return { answers }
  },
}
