// The graded parts of a results row and of the details JSON, from a grade and what was measured. Shared by the
// record stage and `live-evals grade`, so a row re-graded from saved artifacts is built by the same code as the
// row of the run that saved them: what is recomputed (grades, assessment, observability, the row's verdict) and
// what is copied (audio and voice metrics, consumption) is decided here once.
import { checksExtensionOf, compactAssessment } from '../../grading/outcome.ts'
import type { ScenarioFacts } from '../../grading/scenario-facts.ts'
import type { SingleTurnGrade } from '../../grading/single-turn.ts'
import type { InteractionMetrics } from '../../metrics/interaction.ts'
import type { VoiceMetrics } from '../../metrics/voice-metrics.ts'
import type { SingleTurnObservation } from '../../observability/observation.ts'
import { buildResultRow } from '../../reporting/result-item.ts'
import type { ResultArtifacts, ResultItem } from '../../reporting/result-schema.ts'
import { singleTurnObservability } from '../../reporting/single-turn-observability.ts'
import { type SemanticAssessment, semanticJudgeDetails } from './judge-stage.ts'

export interface GradedRowInput {
  scenario_id: string
  title: string
  facts: ScenarioFacts
  observation: SingleTurnObservation
  grade: SingleTurnGrade
  semantic: SemanticAssessment
  audio: InteractionMetrics | null
  /** The voice metrics (extension `voice_metrics`), measured on the session; absent, the row has none. */
  voice?: VoiceMetrics | undefined
  consumption: ResultItem['metrics']['consumption']
  artifacts: ResultArtifacts
  audio_source: 'synthetic' | 'recorded'
  provenance: Record<string, unknown>
  /** WALK: the recording as the dataset gives it. */
  recording?: Record<string, unknown> | undefined
}

export function buildGradedRow(input: GradedRowInput): ResultItem {
  const { grade } = input
  const judgeFailure = input.semantic.failure
  return buildResultRow({
    scenario_id: input.scenario_id,
    title: input.title,
    // A judge failure is a raw `failed` with a stage, which the status mapping reads as infrastructure_error.
    raw_status: judgeFailure === null ? 'ok' : 'failed',
    task_completed: grade.task_completed,
    semantic_quality: grade.semantic_quality,
    evidence: grade.evidence,
    audio: input.audio,
    consumption: input.consumption,
    artifacts: input.artifacts,
    // A response timeout is the assistant's failure, not ours: the session ran, the harness observed all of
    // it, and the assistant never completed an answer. Under the reference status mapping a `failed` row with
    // a failure stage reads as an infrastructure_error, so such a row carries no error at all: it is a graded
    // `failed` (task_completed false via the required conversation_completed check), its termination reason
    // is `response_timeout` in observability.completion and in the details JSON, and its artifacts are kept.
    // Only a judge that could not judge gives a graded row an error.
    error: judgeFailure,
    assessment: compactAssessment(grade.assessment),
    observability: singleTurnObservability({
      observation: input.observation,
      scenario: input.facts,
      grade,
      audio_source: input.audio_source,
      provenance: input.provenance,
    }),
    ...(input.recording === undefined ? {} : { recording: input.recording }),
    extensions: {
      voice_metrics: input.voice,
      checks: checksExtensionOf(grade.assessment),
      faults: input.observation.faults,
    },
  })
}

/** The details JSON fields a grade decides (everything else in the details is what was observed). */
export function gradedDetailsFields(grade: SingleTurnGrade, semantic: SemanticAssessment, row: ResultItem) {
  return {
    task_metrics: row.metrics.task,
    efficiency_metrics: grade.efficiency,
    evidence_metrics: grade.evidence,
    rubric_metrics: semantic.applied?.rubric_metrics ?? null,
    dimension_grades: grade.dimension_grades,
    semantic_grades: grade.semantic_grades,
    judge_usage_events: semantic.usage_events,
    semantic_judge: semanticJudgeDetails(semantic),
    assessment: grade.assessment,
    observability: row.observability ?? {},
  }
}
