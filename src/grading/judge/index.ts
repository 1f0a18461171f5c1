// The semantic judge (rubric voice-semantic-v2): judge a scenario, then apply the grades to the deterministic verdict.
export { aggregateDimension, type JudgedDimension } from './aggregate.ts'
export {
  type AppliedSemanticGrades,
  applySemanticGrades,
  type DeterministicVerdict,
  semanticScores,
} from './apply.ts'
export { type JudgeCache, openJudgeCache } from './cache.ts'
export { createJudge, type Judge, type JudgeDefinition } from './create-judge.ts'
export { DECISIONS_PASSING_SCORE, DEFAULT_DECISIONS_MODEL } from './decisions-judge.ts'
export { dimensionEvidence, PROCEDURE_EVIDENCE_PART, RUN_OUTCOME_CRITERIA } from './dimension-evidence.ts'
export { SEMANTIC_JUDGE_STAGE, SemanticJudgeError, semanticJudgeFailure } from './errors.ts'
export {
  buildJudgeEvidence,
  type JudgeEvidence,
  type JudgeEvidenceRecord,
  type JudgeObserved,
  type JudgeScenarioFacts,
  judgeScenarioFactsOf,
  PRIVATE_BUSINESS_FACT_KEYS,
  publicFacts,
} from './evidence.ts'
export { judgeScenario, judgeWithEvidence, type SemanticJudgement } from './judge-scenario.ts'
export type { JudgeSample, JudgeUsageEvent, JudgeVerdict } from './judge-types.ts'
export { notJudgedGrades } from './not-judged.ts'
export type { JudgeBackend, SemanticJudgeOptions } from './options.ts'
export { DIMENSION_DEFINITIONS, RUBRIC_VERSION, SCORE_ANCHORS } from './rubric.ts'
export { isRubricScore, RUBRIC_SCORES, type RubricScore } from './score.ts'
