// The assess stage: the deterministic graders (pure functions of the Observation and the evaluator-only facts),
// then, where the run has a judge (live, grading enabled), the semantic judge and its grades applied
// (judge-stage.ts). A judge that fails does not throw: its failure travels in `semantic.failure` so the record stage
// can write every artifact and the details before the row reports the infrastructure_error at semantic_judge.
import { judgeScenarioFactsOf } from '../../grading/judge/index.ts'
import { compactAssessment } from '../../grading/outcome.ts'
import { type ScenarioFacts, scenarioFactsOf } from '../../grading/scenario-facts.ts'
import { gradeSingleTurn, type SingleTurnGrade } from '../../grading/single-turn.ts'
import type { Scenario } from '../../scenarios/index.ts'
import type { ScenarioEnv } from './execution.ts'
import { judgeGrade, type SemanticAssessment } from './judge-stage.ts'
import type { ObservedConversation } from './observed.ts'

export interface Assessed {
  facts: ScenarioFacts
  /** The deterministic grade with the judge's grades applied (when a judge ran). */
  grade: SingleTurnGrade
  /** The judge's part; null until the judge stage ran (see judgeAssessed). */
  semantic: SemanticAssessment | null
}

/** An assessment the judge stage has seen (with or without a judge to run). */
export type JudgedAssessment = Assessed & { semantic: SemanticAssessment }

/** What the judge stage reads of the environment: its options and the application's public facts. */
export type JudgeEnv = Pick<ScenarioEnv, 'judge' | 'architecture'>

export async function assessConversation(
  scenario: Scenario,
  observed: ObservedConversation,
  env?: JudgeEnv,
): Promise<Assessed> {
  const facts = scenarioFactsOf(scenario)
  const grade = gradeSingleTurn(observed.observation, facts)
  observed.trace.addEvaluation('evaluation.checks.assessed', observed.endedAtMs, {
    deterministic: Object.fromEntries(
      Object.entries(grade.dimension_grades).map(([name, dim]) => [name, dim.status]),
    ),
    tool_call_grade: grade.tool_call_grade,
  })
  const deterministic: Assessed = { facts, grade, semantic: null }
  const assessed =
    env === undefined ? deterministic : await judgeAssessed(scenario, observed, deterministic, env)
  observed.trace.addEvaluation('evaluation.outcome.assessed', observed.endedAtMs, {
    assessment: compactAssessment(assessed.grade.assessment),
  })
  return assessed
}

/**
 * The judge stage over a deterministic assessment (idempotent: an assessment already judged is returned as is).
 * assessConversation runs it when given the environment; the record stage runs it for a caller that did not.
 */
export async function judgeAssessed(
  scenario: Scenario,
  observed: ObservedConversation,
  assessed: Assessed,
  env: JudgeEnv,
): Promise<JudgedAssessment> {
  if (assessed.semantic !== null) return { ...assessed, semantic: assessed.semantic }
  const { grade, semantic } = await judgeGrade(
    judgeScenarioFactsOf(scenario),
    assessed.grade,
    {
      // Delegations are shown as their ids (the default), not their timed spans: the evidence of the same
      // conversation must hash the same in a later run, or the judge cache could never answer.
      observation: observed.observation,
      business_facts: env.architecture.application.publicFacts(),
    },
    env.judge ?? null,
  )
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
  return { ...assessed, grade, semantic }
}
