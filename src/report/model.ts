// The report's state: a pure function from what the adapter loaded to everything the page shows. Rendering reads
// only this model, so the numbers on the page can be tested without HTML and without a browser.

import type { SpeechInterval } from '../audio/speech-activity.ts'
import type { LoadedExplanation } from '../explain/load-explanations.ts'
import type { FaultsRecord } from '../faults/events.ts'
import { isToolTurn, type LatencySplit, latencySplit, rowTurnWork } from '../gate/latency.ts'
import { architectureOf } from '../gate/row-keys.ts'
import { summarizeConditionRobustness } from '../reporting/condition-robustness.ts'
import type { ConditionRobustness } from '../reporting/extensions/condition-robustness.ts'
import type { ExpectedFailure } from '../reporting/extensions/expected-failure.ts'
import type { PacingError } from '../reporting/extensions/pacing.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import type { RunTrials } from '../reporting/extensions/trials.ts'
import type { VoiceMetrics } from '../reporting/extensions/voice-metrics.ts'
import type { ResultItem, ResultStatus } from '../reporting/result-schema.ts'
import { assistantsOf } from '../reporting/row-assistant.ts'
import { rowKeyOf } from '../reporting/row-key.ts'
import { type MetricSummary, ROW_METRICS, summarizeMetrics } from '../reporting/row-metrics.ts'
import { type ProportionInterval, wilsonInterval } from '../reporting/statistics.ts'
import { repeatsTrials, scenarioPassRate, summarizeTrials } from '../reporting/trials-summary.ts'
import { anchorOf } from './html.ts'
import type { LoadedRun, ScenarioEvidence } from './load-run.ts'
import { diffState, type StateChange } from './state-diff.ts'

export interface CheckModel {
  id: string
  status: string
  required: boolean
  reason: string | null
  evidence: unknown
}

export interface TimelineLine {
  role: 'caller' | 'assistant'
  text: string
  start_ms: number | null
  end_ms: number | null
}

export interface ToolCallModel {
  name: string
  call_id: string | null
  status: string
  arguments: unknown
  output: unknown
  at_ms: number | null
  /** The kind of fault a fault profile injected into this call; null when it ran undisturbed. */
  fault: string | null
}

export interface TimelineModel {
  duration_ms: number | null
  caller: SpeechInterval[]
  assistant: SpeechInterval[]
  envelope: { caller: number[]; assistant: number[] } | null
  lines: TimelineLine[]
  delegations: { id: string; start_ms: number; settled_ms: number | null }[]
  tool_calls: ToolCallModel[]
}

export interface SemanticDimension {
  dimension: string
  status: string
  score: number | null
  rationale: string
}

export interface ScenarioModel {
  anchor: string
  scenario_id: string
  trial: number
  /** The assistant under test this row evaluated; null when the row does not say (written before it was kept). */
  assistant: string | null
  /** The harness's pacing error of this row's call; null on the virtual clock, undefined when not recorded. */
  pacing?: PacingError | null | undefined
  title: string
  status: ResultStatus
  error: { stage: string; message: string } | null
  rationale: string | null
  tool_turn: boolean
  metrics: Record<string, number | null>
  checks: CheckModel[]
  failed_checks: CheckModel[]
  audio: { caller: string | null; assistant: string | null; conversation: string | null }
  timeline: TimelineModel
  state: { initial: unknown; final: unknown; changes: StateChange[] } | null
  semantic: { score: number | null; dimensions: SemanticDimension[] }
  /** What could not be shown and why (a missing details file, an unreadable WAV). */
  problems: string[]
  /** The row's voice metrics (RUN); null or absent when it has none. */
  voice?: VoiceMetrics | null
  /** The fault profile the row ran under and what it injected; null when it ran clean. */
  faults: FaultsRecord | null
  /** The spec declared the row must fail on these checks; null when it must pass. */
  expected_failure: ExpectedFailure | null
}

export interface RunReportModel {
  run: {
    id: string
    module: string
    execution_mode: string
    architecture: string
    dataset: string
    /** The distinct assistants under test of the rows, in row order; empty when no row names one. */
    assistants: string[]
  }
  partial: string | null
  /** Rows by status (results.json's summary): with trials, a scenario counts once per trial. */
  counts: { total: number; passed: number; failed: number; infrastructure_errors: number }
  /** Distinct scenarios among the rows. */
  scenario_count: number
  /**
   * The pass rate with its 95% interval; with repeated trials over scenarios (each its pass fraction over its
   * trials, since trials are not independent draws), as the gate judges it.
   */
  pass_rate: ProportionInterval
  pass_rate_over: 'rows' | 'scenarios'
  metrics: MetricSummary[]
  latency: LatencySplit
  /** pass^1, pass^k and metric spreads per scenario and overall; null unless the run repeated its trials. */
  trials: RunTrials | null
  /** Per source scenario, whether it passed under every condition; null unless some ran under several. */
  robustness: ConditionRobustness | null
  scenarios: ScenarioModel[]
  /** Why its failures failed, when `live-evals explain` explained the run (src/explain); null otherwise. */
  explanation: LoadedExplanation | null
}

type Loose = Record<string, unknown>
const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const stringOr = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback)

function checksOf(row: ResultItem, evidence: ScenarioEvidence): CheckModel[] {
  // The details carry each check's reason and evidence; the row only its id and status.
  const detailed = isObject(evidence.details?.assessment) ? evidence.details.assessment.checks : undefined
  if (Array.isArray(detailed)) {
    return detailed.filter(isObject).map((check) => ({
      id: stringOr(check.id, '?'),
      status: stringOr(check.status, '?'),
      required: check.required === true,
      reason: typeof check.reason === 'string' ? check.reason : null,
      evidence: check.evidence ?? null,
    }))
  }
  return (row.assessment?.checks ?? []).map((check) => ({ ...check, reason: null, evidence: null }))
}

function semanticOf(row: ResultItem, evidence: ScenarioEvidence): ScenarioModel['semantic'] {
  const grades = evidence.details?.semantic_grades
  const dimensions: SemanticDimension[] = isObject(grades)
    ? Object.entries(grades)
        .filter((entry): entry is [string, Loose] => isObject(entry[1]))
        .map(([dimension, grade]) => ({
          dimension,
          status: stringOr(grade.status, '?'),
          score: typeof grade.score === 'number' ? grade.score : null,
          rationale: stringOr(grade.rationale, ''),
        }))
    : Object.entries(row.metrics.task.semantic_quality.dimensions).map(([dimension, score]) => ({
        dimension,
        status: 'scored',
        score,
        rationale: '',
      }))
  return { score: row.metrics.task.semantic_quality.score, dimensions }
}

function timelineOf(evidence: ScenarioEvidence): TimelineModel {
  const details = evidence.details
  const lines: TimelineLine[] = details?.lines ?? []
  return {
    duration_ms: evidence.voice?.duration_ms ?? null,
    caller: evidence.voice?.caller ?? [],
    assistant: evidence.voice?.assistant ?? [],
    envelope: evidence.voice?.envelope ?? null,
    lines,
    delegations: (details?.delegations ?? []).map((delegation) => ({
      id: delegation.id,
      start_ms: delegation.startMs,
      settled_ms: delegation.settledMs,
    })),
    tool_calls: (details?.tool_executions ?? []).map((execution) => ({
      name: execution.name,
      call_id: execution.call_id,
      status: execution.status,
      arguments: execution.arguments,
      output: execution.output,
      at_ms: execution.completed_at_ms,
      fault: execution.fault?.kind ?? null,
    })),
  }
}

export function scenarioModel(row: ResultItem, evidence: ScenarioEvidence): ScenarioModel {
  const { scenario_id, trial } = rowKeyOf(row)
  const checks = checksOf(row, evidence)
  const details = evidence.details
  return {
    anchor: anchorOf(scenario_id, trial),
    scenario_id,
    trial,
    assistant: row.observability?.[EXTENSION_KEY]?.assistant ?? null,
    pacing: row.observability?.[EXTENSION_KEY]?.pacing,
    title: row.title ?? scenario_id,
    status: row.status,
    error: row.error,
    rationale: row.assessment?.rationale ?? null,
    tool_turn: isToolTurn(rowTurnWork(row)),
    metrics: Object.fromEntries(ROW_METRICS.map((metric) => [metric.name, metric.valueOf(row)])),
    checks,
    failed_checks: checks.filter((check) => check.status === 'failed'),
    audio: {
      caller: row.artifacts.input_audio,
      assistant: row.artifacts.output_audio,
      conversation: row.artifacts.conversation_audio,
    },
    timeline: timelineOf(evidence),
    state:
      details === null
        ? null
        : {
            initial: details.initial_state,
            final: details.final_state,
            changes: diffState(details.initial_state, details.final_state),
          },
    semantic: semanticOf(row, evidence),
    problems: [evidence.details_problem, evidence.voice_problem].filter(
      (problem): problem is string => problem !== null,
    ),
    voice: row.observability?.[EXTENSION_KEY]?.voice_metrics ?? null,
    faults: row.observability?.[EXTENSION_KEY]?.faults ?? null,
    expected_failure: row.observability?.[EXTENSION_KEY]?.expected_failure ?? null,
  }
}

export function runReportModel(loaded: LoadedRun): RunReportModel {
  const { document, partial } = loaded.file
  const rows = document.results
  const scenarioOf = (row: ResultItem) => rowKeyOf(row).scenario_id
  const repeated = repeatsTrials(rows, scenarioOf)
  return {
    run: {
      id: document.run.id,
      module: document.run.module,
      execution_mode: document.run.execution_mode,
      architecture: architectureOf(document),
      // Every source when spec files named their own (run.dataset is then only the first).
      dataset: (document.run.configuration[EXTENSION_KEY]?.datasets ?? [document.run.dataset]).join(', '),
      // From the rows, as results.json's run extension is.
      assistants: assistantsOf(rows) ?? [],
    },
    partial,
    counts: document.summary,
    scenario_count: new Set(rows.map(scenarioOf)).size,
    pass_rate: repeated
      ? scenarioPassRate(rows, scenarioOf, (row) => row.status === 'passed')
      : wilsonInterval(document.summary.passed, document.summary.total),
    pass_rate_over: repeated ? 'scenarios' : 'rows',
    metrics: summarizeMetrics(rows),
    latency: latencySplit(rows),
    // From the rows, as results.json's run extension is: older files without it show the same figures.
    trials: summarizeTrials(rows),
    robustness: summarizeConditionRobustness(rows),
    scenarios: rows.map((row, index) => scenarioModel(row, loaded.evidence[index] as ScenarioEvidence)),
    explanation: loaded.explanation ?? null,
  }
}
