// The assess stage: the deterministic graders (pure functions of the Observation and the evaluator-only facts),
// then the judge stage (judge-stage.ts), which runs the semantic judge where the run has one (live, grading
// enabled) and applies its grades. A judge that fails does not throw: its failure travels in `semantic.failure` so
// the record stage can write every artifact and the details before the row reports the infrastructure_error at
// semantic_judge.

import type { JsonObject } from '../../assistants/offline-behaviour.ts'
import { judgeScenarioFactsOf, type SemanticJudgeOptions } from '../../grading/judge/index.ts'
import { compactAssessment } from '../../grading/outcome.ts'
import { type ScenarioFacts, scenarioFactsOf } from '../../grading/scenario-facts.ts'
import { gradeSingleTurn, type SingleTurnGrade } from '../../grading/single-turn.ts'
import type { SingleTurnObservation } from '../../observability/observation.ts'
import type { Scenario } from '../../scenarios/index.ts'
import type { ScenarioEnv } from './execution.ts'
import { judgeGrade, type SemanticAssessment } from './judge-stage.ts'
import type { ObservedConversation } from './observed.ts'

export interface Assessed {
  facts: ScenarioFacts
  /** The deterministic grade with the judge's grades applied (when a judge ran). */
  grade: SingleTurnGrade
  /** The judge's part (empty when the run has no judge). */
  semantic: SemanticAssessment
}

/** What the assess stage reads of the environment: the judge's options and the application's public facts. */
export type AssessEnv = Pick<ScenarioEnv, 'judge' | 'architecture' | 'settings'>

/**
 * The graders over one observation: the deterministic grade, then the judge stage over it. Shared by a run's assess
 * stage and `live-evals grade`, so a re-graded row is decided exactly as a fresh one.
 */
export async function assessObservation(
  scenario: Scenario,
  observation: SingleTurnObservation,
  businessFacts: JsonObject | null,
  judge: SemanticJudgeOptions | null,
  /** grading.max_dead_air_ms; default the built-in one (a re-grade without settings). */
  maxDeadAirMs?: number,
): Promise<Assessed & { deterministic: SingleTurnGrade }> {
  const facts = scenarioFactsOf(scenario)
  const deterministic = gradeSingleTurn(observation, facts, {}, maxDeadAirMs)
  // Delegations are shown as their ids (the default), not their timed spans: the evidence of the same
  // conversation must hash the same in a later run, or the judge cache could never answer.
  const { grade, semantic } = await judgeGrade(
    judgeScenarioFactsOf(scenario),
    deterministic,
    { observation, business_facts: businessFacts },
    judge,
  )
  return { facts, deterministic, grade, semantic }
}

export async function assessConversation(
  scenario: Scenario,
  observed: ObservedConversation,
  env: AssessEnv,
): Promise<Assessed> {
  const { facts, deterministic, grade, semantic } = await assessObservation(
    scenario,
    observed.observation,
    env.architecture.application.publicFacts(),
    env.judge ?? null,
    env.settings.grading.max_dead_air_ms,
  )
  observed.trace.addEvaluation('evaluation.checks.assessed', observed.endedAtMs, {
    deterministic: Object.fromEntries(
      Object.entries(deterministic.dimension_grades).map(([name, dim]) => [name, dim.status]),
    ),
    tool_call_grade: deterministic.tool_call_grade,
  })
  if (semantic.judgement !== null || semantic.failure !== null) {
    observed.trace.addEvaluation('evaluation.semantic_judge.completed', observed.endedAtMs, {
      assessed: semantic.judgement?.assessed ?? false,
      dimensions: Object.fromEntries(
        Object.entries(grade.semantic_grades).map(([name, dim]) => [name, dim.status]),
      ),
      semantic_quality: grade.semantic_quality.score,
      requests: semantic.usage_events.length,
      error: semantic.failure,
    })
  }
  observed.trace.addEvaluation('evaluation.outcome.assessed', observed.endedAtMs, {
    assessment: compactAssessment(grade.assessment),
  })
  return { facts, grade, semantic }
}
