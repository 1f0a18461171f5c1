// Response latency as the report and the gate see it: one sample per answered response, split into turns with
// tool work and turns without, and read against named bands. RUN reuses isToolTurn for its per-turn samples.

import { optionalCount } from '../metrics/counts.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { rowKeyOf } from '../reporting/row-key.ts'
import { type Distribution, distributionOf } from '../reporting/statistics.ts'
import { type RunTurnLatency, runTurnLatency, runTurnsOfRow } from './run-turn-latency.ts'

/** What happened between a caller's request and the assistant's answer to it. */
export interface TurnWork {
  /** Delegations to the backend opened for this turn. */
  delegations: number
  /** Application tool calls executed for this turn. */
  tool_calls: number
}

/**
 * A tool turn is a response that needed work before it could be answered: at least one delegation or one tool
 * call. Such turns get the wider 3 s band, since the caller is waiting on the application, not on the voice.
 */
export function isToolTurn(work: TurnWork): boolean {
  return work.delegations > 0 || work.tool_calls > 0
}

export interface LatencyBand {
  name: string
  max_ms: number
}

/** Bands for turns without tool work, tightest first; a latency belongs to the first band it fits. */
const CONVERSATIONAL_BANDS: readonly LatencyBand[] = [
  { name: 'human', max_ms: 300 },
  { name: 'comfortable', max_ms: 1_000 },
  { name: 'acceptable', max_ms: 2_000 },
]
const TOOL_TURN_BAND: LatencyBand = { name: 'tool turns', max_ms: 3_000 }

export interface ResponseSample {
  scenario_id: string
  trial: number
  latency_ms: number
  tool_turn: boolean
}

export interface ResponseSamples {
  samples: ResponseSample[]
  /**
   * Rows that answered more than one response (results.json holds only their mean latency, so they give no
   * per-response sample) and carry no `run_turns` either, where RUN keeps its latency by turn kind.
   */
  rows_without_turn_latency: number
  /** Those rows' mean latencies (a RUN conversation's answered responses, averaged), one per row. */
  conversation_means: number[]
  /** How many responses those means average. */
  conversation_responses: number
}

/** The tool work of a single-response row, from its observability, falling back to its count pairs. */
export function rowTurnWork(row: ResultItem): TurnWork {
  const observability = row.observability as
    | { interaction?: { delegations?: unknown }; tools?: { executed?: unknown } }
    | undefined
  const executed = observability?.tools?.executed
  return {
    delegations:
      optionalCount(observability?.interaction?.delegations) ?? row.metrics.task.delegations?.actual ?? 0,
    tool_calls: Array.isArray(executed) ? executed.length : (row.metrics.task.tool_calls?.actual ?? 0),
  }
}

/** One sample per row that answered exactly one response in time; infrastructure rows are left out. */
function responseSamplesOf(rows: readonly ResultItem[]): ResponseSamples {
  const samples: ResponseSample[] = []
  const conversationMeans: number[] = []
  let conversationResponses = 0
  let rowsWithoutTurnLatency = 0
  for (const row of rows) {
    if (row.status === 'infrastructure_error') continue
    const latency = row.metrics.audio.response_latency_ms
    if (latency === null) continue
    const answered = row.metrics.audio.response_opportunities?.response_count ?? 1
    if (answered !== 1) {
      if (runTurnsOfRow(row) === null) rowsWithoutTurnLatency++
      conversationMeans.push(latency)
      conversationResponses += answered
      continue
    }
    const { scenario_id, trial } = rowKeyOf(row)
    samples.push({ scenario_id, trial, latency_ms: latency, tool_turn: isToolTurn(rowTurnWork(row)) })
  }
  return {
    samples,
    rows_without_turn_latency: rowsWithoutTurnLatency,
    conversation_means: conversationMeans,
    conversation_responses: conversationResponses,
  }
}

export interface BandCount {
  band: string
  max_ms: number
  /** Samples at or under the band's limit (cumulative: a 250 ms answer is within every band). */
  within: number
  n: number
}

export interface LatencySplit {
  all: Distribution
  conversational: Distribution
  tool: Distribution
  conversational_bands: BandCount[]
  tool_band: BandCount
  /** Multi-response rows in neither the per-response percentiles nor `run_turns`: no latency by turn kind. */
  rows_without_turn_latency: number
  /** RUN calls' time to a verified answer by turn kind, one sample per call and kind (its `run_turns` mean). */
  run_turns: RunTurnLatency
  /**
   * One sample per multi-response row (a RUN conversation): its mean response latency, the only latency
   * results.json keeps for it. What a gate can judge when no row has a per-response latency.
   */
  conversation_means: Distribution
  /** How many answered responses the conversation means average. */
  conversation_responses: number
}

function bandCounts(latencies: readonly number[], band: LatencyBand): BandCount {
  return {
    band: band.name,
    max_ms: band.max_ms,
    within: latencies.filter((latency) => latency <= band.max_ms).length,
    n: latencies.length,
  }
}

export function latencySplit(rows: readonly ResultItem[]): LatencySplit {
  const { samples, rows_without_turn_latency, conversation_means, conversation_responses } =
    responseSamplesOf(rows)
  const conversational = samples.filter((sample) => !sample.tool_turn).map((sample) => sample.latency_ms)
  const tool = samples.filter((sample) => sample.tool_turn).map((sample) => sample.latency_ms)
  return {
    all: distributionOf(samples.map((sample) => sample.latency_ms)),
    conversational: distributionOf(conversational),
    tool: distributionOf(tool),
    conversational_bands: CONVERSATIONAL_BANDS.map((band) => bandCounts(conversational, band)),
    tool_band: bandCounts(tool, TOOL_TURN_BAND),
    rows_without_turn_latency,
    run_turns: runTurnLatency(rows),
    conversation_means: distributionOf(conversation_means),
    conversation_responses,
  }
}
