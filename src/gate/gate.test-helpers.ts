// Builders for gate and report tests: real results documents made by the reporting module's own row and document
// builders, so every fixture is a results.json the gate would read from disk.

import { passingRowInput } from '../reporting/reporting-fixtures.ts'
import { buildResultRow, infrastructureErrorRow } from '../reporting/result-item.ts'
import type { MeasuredAudioMetrics, ResultItem, ResultsDocument } from '../reporting/result-schema.ts'
import { buildResultsDocument } from '../reporting/results-document.ts'
import type { GateFile } from './rows.ts'

export function measuredAudio(latencyMs: number): MeasuredAudioMetrics {
  return {
    response_rate: 1,
    response_latency_ms: latencyMs,
    interruption_rate: 0,
    speaking_duration_ms: { cumulative: 3_000, maximum: 3_000 },
    floor_hold_silence_ms: { cumulative: 0, maximum: 0 },
    metrics_version: '2.0',
    response_deadline_ms: 5_000,
    response_opportunities: {
      caller_turn_count: 1,
      response_eligible_count: 1,
      response_censored_count: 0,
      response_excluded_count: 0,
      response_late_count: 0,
      response_total: 1,
      response_count: 1,
      no_response_count: 0,
    },
    response_exclusion_reasons: {},
  }
}

export interface RowSpec {
  id: string
  status?: 'passed' | 'failed' | 'infrastructure_error'
  trial?: number
  latencyMs?: number | null
  /** Tool calls executed (0: a turn without tool work). */
  tools?: number
  toolAccuracy?: number | null
  title?: string
}

export function row(spec: RowSpec): ResultItem {
  const extensions = spec.trial === undefined ? undefined : { trial: spec.trial }
  if (spec.status === 'infrastructure_error') {
    return infrastructureErrorRow({
      scenario_id: spec.id,
      stage: 'connection',
      message: 'refused',
      extensions,
    })
  }
  const tools = spec.tools ?? 1
  const executed = Array.from({ length: tools }, (_, index) => ({
    name: 'create_reservation',
    status: 'completed',
    arguments: { party_size: index + 2 },
    call_id: `call_${index}`,
  }))
  return buildResultRow(
    passingRowInput({
      scenario_id: spec.id,
      title: spec.title ?? spec.id,
      task_completed: spec.status !== 'failed',
      audio: spec.latencyMs === null ? null : measuredAudio(spec.latencyMs ?? 400),
      evidence: {
        tool_accuracy: spec.toolAccuracy === undefined ? 1 : spec.toolAccuracy,
        delegation_accuracy: 1,
        tool_calls: `${tools}/${tools}`,
        delegations: `${tools > 0 ? 1 : 0}/1`,
        turns: '2/2',
      },
      observability: {
        interaction: { mode: 'single_turn', delegations: tools > 0 ? 1 : 0 },
        tools: { executed },
      },
      extensions,
    }),
  )
}

export function resultsDocument(
  rows: readonly ResultItem[],
  run: { module?: 'crawl' | 'walk' | 'run'; architecture?: string; id?: string } = {},
): ResultsDocument {
  return buildResultsDocument(
    {
      id: run.id ?? 'crawl_offline_20261201_000000_000Z',
      module: run.module ?? 'crawl',
      execution_mode: 'offline_fixture',
      interaction: 'single_turn',
      dataset: '/data/restaurant.json',
      configuration: { audio_source: 'synthetic', assistant_mode: run.architecture ?? 'client' },
    },
    rows,
    [],
  )
}

export function gateFile(
  rows: readonly ResultItem[],
  options: {
    source?: string
    partial?: string | null
    architecture?: string
    module?: 'crawl' | 'walk' | 'run'
  } = {},
): GateFile {
  return {
    source: options.source ?? 'results.json',
    document: resultsDocument(rows, { architecture: options.architecture, module: options.module }),
    partial: options.partial ?? null,
  }
}
