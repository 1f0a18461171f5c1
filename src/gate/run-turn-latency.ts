// RUN's latency by turn kind, for the report's and the gate summary's latency tables. A RUN row answers many
// responses, so results.json keeps only their mean in `response_latency_ms`; what it keeps per turn kind is the
// row extension `run_turns` (time to a verified answer for tool and non-tool turns, each a count of requests and
// the mean over the answered ones). These tables read that: one sample per call and kind, the call's mean.
// Unknown stays null: a call with no answered request of a kind gives no sample of that kind, never a 0.

import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import type { RunTurnMetrics } from '../reporting/extensions/run-turns.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { type Distribution, distributionOf } from '../reporting/statistics.ts'

export interface TurnKindLatency {
  /** One sample per call that answered a request of this kind: that call's mean time to a verified answer. */
  call_means: Distribution
  /** Requests of this kind over every call that recorded its turns (answered or not). */
  requests: number
  /** Calls that had requests of this kind but answered none of them (no sample: unknown, not 0). */
  calls_without_answer: number
}

export interface RunTurnLatency {
  /** Rows whose `run_turns` extension was read (infrastructure rows are left out). */
  calls: number
  tool_turns: TurnKindLatency
  non_tool_turns: TurnKindLatency
}

/** The row's `run_turns` extension; null when it has none (a CRAWL or WALK row, or an older RUN file). */
export function runTurnsOfRow(row: ResultItem): RunTurnMetrics | null {
  return row.observability?.[EXTENSION_KEY]?.run_turns ?? null
}

function kindLatency(summaries: readonly RunTurnMetrics['time_to_verified_answer_ms']['tool_turns'][]) {
  const means = summaries.flatMap((summary) => (summary.mean_ms === null ? [] : [summary.mean_ms]))
  return {
    call_means: distributionOf(means),
    requests: summaries.reduce((sum, summary) => sum + summary.count, 0),
    calls_without_answer: summaries.filter((summary) => summary.count > 0 && summary.mean_ms === null).length,
  }
}

export function runTurnLatency(rows: readonly ResultItem[]): RunTurnLatency {
  const turns = rows.flatMap((row) => {
    if (row.status === 'infrastructure_error') return []
    const recorded = runTurnsOfRow(row)
    return recorded === null ? [] : [recorded.time_to_verified_answer_ms]
  })
  return {
    calls: turns.length,
    tool_turns: kindLatency(turns.map((kinds) => kinds.tool_turns)),
    non_tool_turns: kindLatency(turns.map((kinds) => kinds.non_tool_turns)),
  }
}
