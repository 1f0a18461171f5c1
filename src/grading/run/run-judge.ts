// The judge half of RUN's assess stage, with the contract of the single-turn judgeGrade (phases/engine/judge-stage):
//
// - No judge options: the deterministic grade stands, its applicable semantic dimensions not_assessed.
// - A conversation that did not complete: nothing is sent (no judgment could make it pass); the applicable
//   dimensions say why they were not assessed.
// - The judge answered: its dimension grades replace the not_assessed ones, semantic_quality is the mean of the
//   assessed dimensions, and the outcome is re-assessed by gradeRun with `semanticCompleted` = the majority of
//   task_understanding's task_completed votes (§3.6). The judge can fail a deterministic pass; it can never rescue a
//   wrong state, a prohibited attempt, a failed critical step or a missing grounded response, because gradeRun
//   keeps those checks required whatever the judge says.
// - The judge failed (including a task_understanding answer without a task_completed vote, which leaves the
//   verdict undecidable): the deterministic grade stands and `failure` names stage semantic_judge; the usage of the
//   requests that did complete is kept.
// - A deterministic grade that re-assessing would change (not gradeRun's over this observation) is refused the same
//   way: it stands, so a failed check can never be lost on the way to the judged grade.
//
// Evaluator-side only: this reads the scenario's facts, the grade and the observation, and talks to nothing but the
// judge's client. Nothing it builds goes back to the assistant, its backend or the simulated caller.

import type { SemanticAssessment } from '../../phases/engine/judge-stage.ts'
import type { AppliedSemanticGrades } from '../judge/apply.ts'
import { semanticScores } from '../judge/apply.ts'
import { SemanticJudgeError, semanticJudgeFailure } from '../judge/errors.ts'
import type { JudgeScenarioFacts } from '../judge/evidence.ts'
import { judgeWithEvidence, type SemanticJudgement } from '../judge/judge-scenario.ts'
import type { JudgeUsageEvent } from '../judge/judge-types.ts'
import { notJudgedGrades, unrejudgedGrade } from '../judge/not-judged.ts'
import type { SemanticJudgeOptions } from '../judge/options.ts'
import { buildRunJudgeEvidence, JUDGE_DECIDED_CHECKS, type RunJudgeObserved } from './run-judge-evidence.ts'
import { gradeRun, type JudgedRunGrade, type RunGrade } from './run-outcome.ts'

export type { RunJudgeObserved } from './run-judge-evidence.ts'

export interface JudgedRun {
  /** The grade every later stage reads: the deterministic one with the judge's grades applied. */
  grade: JudgedRunGrade
  semantic: SemanticAssessment
}

const nothingJudged = (): SemanticAssessment => ({
  judgement: null,
  applied: null,
  failure: null,
  usage_events: [],
})

export async function judgeRunGrade(
  facts: JudgeScenarioFacts,
  deterministic: JudgedRunGrade,
  observed: RunJudgeObserved,
  options: SemanticJudgeOptions | null,
): Promise<JudgedRun> {
  if (options === null) return { grade: deterministic, semantic: nothingJudged() }
  const completion = deterministic.assessment.checks.find((check) => check.id === 'conversation_completed')
  if (completion?.status !== 'passed') {
    const reason = observed.observation.termination_reason ?? 'unknown'
    return {
      grade: { ...deterministic, semantic_grades: notJudgedGrades(deterministic.semantic_grades, reason) },
      semantic: nothingJudged(),
    }
  }
  let judgement: SemanticJudgement
  let applied: RunApplication | null
  let spent: JudgeUsageEvent[] = []
  try {
    judgement = await judgeWithEvidence(
      facts,
      () => buildRunJudgeEvidence(facts, deterministic, observed),
      options,
    )
    spent = judgement.usage_events
    requireCompletionVote(judgement)
    applied = applyRunJudgement(facts, deterministic, observed, judgement)
  } catch (error) {
    // A re-grade from a recording that holds no equal judge request: not judged, and the grades say why.
    const unrejudged = unrejudgedGrade(error, deterministic)
    if (unrejudged !== null) return { grade: unrejudged, semantic: nothingJudged() }
    // A judge failure of any kind (an option it refused included) is the evaluation's, never the assistant's.
    // What the judge cost is kept even when its answers could not be used.
    const usage_events = error instanceof SemanticJudgeError ? error.usage_events : spent
    return {
      grade: deterministic,
      semantic: { judgement: null, applied: null, failure: semanticJudgeFailure(error), usage_events },
    }
  }
  const grade: JudgedRunGrade =
    applied === null
      ? { ...deterministic, semantic_grades: judgement.grades }
      : { ...applied.regraded, semantic_grades: judgement.grades, semantic_quality: applied.semantic_quality }
  return {
    grade,
    semantic: {
      judgement,
      applied: applied?.summary ?? null,
      failure: null,
      usage_events: judgement.usage_events,
    },
  }
}

/** RUN decides on task_understanding's task_completed votes; an assessed dimension without them decides nothing. */
function requireCompletionVote(judgement: SemanticJudgement): void {
  const understanding = judgement.dimensions.task_understanding
  if (!judgement.assessed || understanding === undefined || understanding.status === 'not_assessed') return
  if (judgement.task_completion.completed !== null) return
  const missing = understanding.samples.filter((sample) => sample.task_completed === null).length
  throw new SemanticJudgeError(
    `Semantic judge (task_understanding) gave no task_completed vote in ${missing} of ` +
      `${understanding.samples.length} judgment(s); a simulated call's verdict needs every vote`,
    {
      judge: understanding.samples[0]?.judge ?? null,
      dimension: 'task_understanding',
      usage_events: judgement.usage_events,
    },
  )
}

interface RunApplication {
  regraded: RunGrade
  semantic_quality: JudgedRunGrade['semantic_quality']
  summary: AppliedSemanticGrades
}

/** The outcome re-assessed with the judge's completion verdict; null when task_understanding was not assessed. */
function applyRunJudgement(
  facts: JudgeScenarioFacts,
  deterministic: JudgedRunGrade,
  observed: RunJudgeObserved,
  judgement: SemanticJudgement,
): RunApplication | null {
  const understanding = judgement.dimensions.task_understanding
  const completed = judgement.task_completion.completed
  if (!judgement.assessed || understanding === undefined || completed === null) return null
  const regraded = gradeRun(observed.observation, facts.expected, {
    semanticCompleted: completed,
    expectsVerification: facts.expects_verification === true,
    maxDeadAirMs: deterministic.max_dead_air_ms,
    maxDurationSeconds: deterministic.max_duration_seconds,
  })
  requireSameDeterministicChecks(deterministic, regraded)
  const scores = semanticScores(judgement, understanding)
  return {
    regraded,
    semantic_quality: scores.semantic_quality,
    summary: {
      task_completed: regraded.task_completed,
      requirements_satisfied: regraded.task_completed,
      deterministic_task_completed: deterministic.task_completed,
      deterministic_requirements_satisfied: deterministic.task_completed,
      semantic_task_completed: completed,
      semantic_requirements_satisfied: scores.semantic_requirements_satisfied,
      semantic_outcome_score: scores.semantic_outcome_score,
      semantic_quality: scores.semantic_quality,
      completion_source: 'llm',
      rubric_metrics: scores.rubric_metrics,
      assessment: regraded.assessment,
    },
  }
}

/**
 * The judge may only add its verdict: every other check must read as it did in the grade handed in. A grade that
 * was not gradeRun's over this observation could otherwise lose a failed check here and be rescued; refusing it
 * leaves that grade standing.
 */
function requireSameDeterministicChecks(deterministic: RunGrade, regraded: RunGrade): void {
  for (const before of deterministic.assessment.checks) {
    if (JUDGE_DECIDED_CHECKS.has(before.id)) continue
    const after = regraded.assessment.checks.find((item) => item.id === before.id)
    if (after?.status === before.status && after.required === before.required) continue
    throw new Error(
      `The deterministic grade given to judgeRunGrade is not gradeRun's over this observation: check ` +
        `${before.id} was ${before.status} (required: ${before.required}) and re-assesses as ` +
        `${after?.status ?? 'missing'} (required: ${after?.required ?? 'n/a'}); the deterministic grade stands`,
    )
  }
}
