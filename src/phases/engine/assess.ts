// The assess stage: the deterministic graders (pure functions of the Observation and the evaluator-only facts),
// then, where a run asks for it, the semantic judge. It is async so the judge can join without changing callers.
import { compactAssessment } from '../../grading/outcome.ts'
import { type ScenarioFacts, scenarioFactsOf } from '../../grading/scenario-facts.ts'
import { gradeSingleTurn, type SingleTurnGrade } from '../../grading/single-turn.ts'
import type { Scenario } from '../../scenarios/index.ts'
import type { ObservedConversation } from './observed.ts'

export interface Assessed {
  facts: ScenarioFacts
  grade: SingleTurnGrade
}

export async function assessConversation(
  scenario: Scenario,
  observed: ObservedConversation,
): Promise<Assessed> {
  const facts = scenarioFactsOf(scenario)
  const grade = gradeSingleTurn(observed.observation, facts)
  observed.trace.addEvaluation('evaluation.checks.assessed', observed.endedAtMs, {
    deterministic: Object.fromEntries(
      Object.entries(grade.dimension_grades).map(([name, dim]) => [name, dim.status]),
    ),
    tool_call_grade: grade.tool_call_grade,
  })
  observed.trace.addEvaluation('evaluation.outcome.assessed', observed.endedAtMs, {
    assessment: compactAssessment(grade.assessment),
  })
  return { facts, grade }
}
