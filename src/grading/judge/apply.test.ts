import { describe, expect, it } from 'vitest'
import { bookingObservation, bookingScenario } from '../grading-fixtures.ts'
import type { SemanticDimension } from '../semantic-applicability.ts'
import { gradeSingleTurn } from '../single-turn.ts'
import { aggregateDimension, semanticDimensionGrades } from './aggregate.ts'
import { applySemanticGrades, type DeterministicVerdict } from './apply.ts'
import type { SemanticJudgement } from './judge-scenario.ts'
import type { JudgeSample } from './judge-types.ts'
import type { RubricScore } from './score.ts'

function sample(dimension: SemanticDimension, score: RubricScore, passed: boolean): JudgeSample {
  return {
    dimension,
    score,
    passed,
    rationale: 'why',
    evidence: [],
    task_completed: dimension === 'task_understanding' ? passed : null,
    repetition: 0,
    judge: 'test',
    cached: false,
    detail: {},
  }
}

function judgement(samples: JudgeSample[], refused: SemanticDimension[] = []): SemanticJudgement {
  const dimensions: SemanticJudgement['dimensions'] = {}
  for (const item of samples) dimensions[item.dimension] = aggregateDimension(item.dimension, [item])
  for (const dimension of refused) dimensions[dimension] = aggregateDimension(dimension, [], ['refused'])
  return {
    rubric_version: 'voice-semantic-v2',
    assessed: true,
    backend: 'responses',
    judge_model: 'judge-model',
    dimensions,
    grades: semanticDimensionGrades(dimensions, 'judge-model'),
    task_completion: { completed: dimensions.task_understanding?.task_completed ?? null },
    naturalness: { score: null, reason: 'requires human or audio-based evaluation' },
    usage_events: [],
    evidence: null,
  }
}

/** A real deterministic grade of the booking: passing as observed, failing with the state left unchanged. */
function deterministic(pass: boolean): DeterministicVerdict {
  const observation = pass
    ? bookingObservation()
    : bookingObservation({ final_application_state: { reservations: [] } })
  const grade = gradeSingleTurn(observation, bookingScenario())
  expect(grade.task_completed).toBe(pass)
  return grade
}

describe('applySemanticGrades', () => {
  it('a deterministic pass with task_understanding passed stays a pass, now decided with the judge', () => {
    const applied = applySemanticGrades(
      deterministic(true),
      judgement([sample('task_understanding', 1, true), sample('grounded_communication', 0.75, true)]),
    )
    expect(applied).toMatchObject({
      task_completed: true,
      requirements_satisfied: true,
      deterministic_task_completed: true,
      semantic_task_completed: true,
      semantic_requirements_satisfied: true,
      semantic_outcome_score: 1,
      completion_source: 'llm',
      semantic_quality: { score: 0.875, dimensions: { task_understanding: 1, grounded_communication: 0.75 } },
      rubric_metrics: {
        task_understanding: { score: 1 },
        task_completion: { completed: true },
        semantic_quality: { score: 0.75 },
      },
    })
    expect(applied?.assessment.source).toBe('semantic_judge')
    expect(applied?.assessment.checks.find((check) => check.id === 'semantic_outcome')).toMatchObject({
      status: 'passed',
      required: true,
    })
  })

  it('task_understanding failing flips a deterministic pass to a fail', () => {
    const applied = applySemanticGrades(
      deterministic(true),
      judgement([sample('task_understanding', 0.25, false)]),
    )
    expect(applied).toMatchObject({
      task_completed: false,
      requirements_satisfied: false,
      deterministic_task_completed: true,
    })
    expect(applied?.assessment).toMatchObject({
      passed: false,
      rationale: 'Required checks failed: semantic_outcome.',
    })
  })

  it('partial or full credit never rescues a failed deterministic requirement', () => {
    const applied = applySemanticGrades(
      deterministic(false),
      judgement([sample('task_understanding', 1, true)]),
    )
    expect(applied).toMatchObject({
      task_completed: false,
      deterministic_task_completed: false,
      semantic_task_completed: true,
    })
    expect(applied?.assessment.passed).toBe(false)
  })

  it('other dimensions are diagnostic: failing them never fails the task', () => {
    const applied = applySemanticGrades(
      deterministic(true),
      judgement([sample('task_understanding', 1, true), sample('grounded_communication', 0, false)]),
    )
    expect(applied).toMatchObject({ task_completed: true, semantic_requirements_satisfied: false })
    expect(applied?.semantic_quality.score).toBe(0.5)
  })

  it('semantic_quality is the mean of the assessed dimensions only', () => {
    const applied = applySemanticGrades(
      deterministic(true),
      judgement(
        [sample('task_understanding', 0.75, true), sample('context_fidelity', 0.5, true)],
        ['grounded_communication'],
      ),
    )
    expect(applied?.semantic_quality).toEqual({
      score: 0.625,
      dimensions: { task_understanding: 0.75, context_fidelity: 0.5 },
    })
  })

  it('changes nothing when task_understanding was not assessed, or no judge ran', () => {
    expect(applySemanticGrades(deterministic(true), judgement([], ['task_understanding']))).toBeNull()
    const offline = { ...judgement([sample('task_understanding', 1, true)]), assessed: false }
    expect(applySemanticGrades(deterministic(true), offline)).toBeNull()
  })
})
