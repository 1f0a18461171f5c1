// Metric drift: the same scenarios recorded again, compared with their recordings row by row. Both sides are
// graded by today's graders (the recordings re-graded, the new run graded as it ran), so what differs is what the
// service did: the verdicts, response latency (p50/p95 over the rows), the response rate, delegation (the
// accuracy and each row's delegation count), the tool calls and their arguments, and RUN's yield to barge-ins.
// Rows are paired by architecture, scenario and trial; a row present on one side only is listed, never guessed.
// Unknown values stay null and are left out of every figure and delta.
import type { ResultItem } from '../../reporting/result-schema.ts'
import { rowKeyOf } from '../../reporting/row-key.ts'
import { distributionOf, meanOf } from '../../reporting/statistics.ts'
import { firstDifference } from '../match.ts'

/** One run's rows, with the architecture the run was of. */
export interface ArchitectureRows {
  architecture: string
  rows: readonly ResultItem[]
}

export interface DriftTolerances {
  /** A p50 or p95 response latency moving by more than this (ms) is drift. */
  latencyMs: number
  /** A mean ratio (response rate, delegation accuracy, yield rate) moving by more than this is drift. */
  ratio: number
}

export const DEFAULT_DRIFT_TOLERANCES: DriftTolerances = { latencyMs: 250, ratio: 0.05 }

export interface RowChange {
  /** `<architecture> <scenario id>[ trial n]` */
  row: string
  recorded: string
  now: string
}

export interface Figure {
  recorded: number | null
  now: number | null
  delta: number | null
  n: { recorded: number; now: number }
  drifted: boolean
}

export interface MetricDrift {
  paired: number
  only_recorded: string[]
  only_now: string[]
  pass: { recorded: number; now: number; changed: RowChange[] }
  latency_p50_ms: Figure
  latency_p95_ms: Figure
  response_rate: Figure
  delegation_accuracy: Figure
  delegation_changes: RowChange[]
  tool_argument_changes: RowChange[]
  yield_rate: Figure
  drifted: boolean
}

interface Paired {
  label: string
  recorded: ResultItem
  now: ResultItem
}

function labelOf(architecture: string, row: ResultItem): string {
  const { scenario_id: id, trial } = rowKeyOf(row)
  const trialOf = (row.observability?.live_evals as { trial?: number } | undefined)?.trial
  return `${architecture} ${id}${trialOf === undefined ? '' : ` trial ${trial}`}`
}

function indexed(runs: readonly ArchitectureRows[]): Map<string, ResultItem> {
  const rows = new Map<string, ResultItem>()
  for (const run of runs) for (const row of run.rows) rows.set(labelOf(run.architecture, row), row)
  return rows
}

function figure(
  pairs: readonly Paired[],
  value: (row: ResultItem) => number | null,
  reduce: (values: number[]) => number | null,
  tolerance: number,
): Figure {
  // A row that failed to run on either side measured nothing comparable (its status change is listed).
  const graded = pairs.filter(
    (pair) => pair.recorded.status !== 'infrastructure_error' && pair.now.status !== 'infrastructure_error',
  )
  const collect = (side: 'recorded' | 'now') =>
    graded.map((pair) => value(pair[side])).filter((found): found is number => found !== null)
  const before = collect('recorded')
  const after = collect('now')
  const recorded = reduce(before)
  const now = reduce(after)
  const delta = recorded === null || now === null ? null : now - recorded
  return {
    recorded,
    now,
    delta,
    n: { recorded: before.length, now: after.length },
    drifted: delta !== null && Math.abs(delta) > tolerance,
  }
}

type ToolCall = { name: string; status?: string; arguments?: unknown }

function toolCallsOf(row: ResultItem): ToolCall[] | null {
  const tools = (row.observability as { tools?: { executed?: ToolCall[] } } | undefined)?.tools
  if (tools?.executed === undefined) return null
  return tools.executed.map(({ name, status, arguments: args }) => ({ name, status, arguments: args }))
}

const describeCalls = (calls: readonly ToolCall[]) =>
  calls.length === 0
    ? '(no tool call)'
    : calls.map((call) => `${call.name}(${JSON.stringify(call.arguments)})`).join(', ')

export function metricDrift(
  recordedRuns: readonly ArchitectureRows[],
  nowRuns: readonly ArchitectureRows[],
  tolerances: DriftTolerances = DEFAULT_DRIFT_TOLERANCES,
): MetricDrift {
  const recorded = indexed(recordedRuns)
  const now = indexed(nowRuns)
  const pairs: Paired[] = [...recorded].flatMap(([label, row]) => {
    const other = now.get(label)
    return other === undefined ? [] : [{ label, recorded: row, now: other }]
  })
  const passChanges = pairs
    .filter((pair) => pair.recorded.status !== pair.now.status)
    .map((pair) => ({ row: pair.label, recorded: pair.recorded.status, now: pair.now.status }))
  const delegationChanges = pairs.flatMap((pair) => {
    const count = (row: ResultItem) => row.metrics.task.delegations?.actual ?? null
    const [before, after] = [count(pair.recorded), count(pair.now)]
    return before === null || after === null || before === after
      ? []
      : [{ row: pair.label, recorded: `${before} delegation(s)`, now: `${after} delegation(s)` }]
  })
  const toolChanges = pairs.flatMap((pair) => {
    const [before, after] = [toolCallsOf(pair.recorded), toolCallsOf(pair.now)]
    if (before === null || after === null || firstDifference(before, after) === null) return []
    return [{ row: pair.label, recorded: describeCalls(before), now: describeCalls(after) }]
  })
  const latency = (row: ResultItem) => row.metrics.audio.response_latency_ms
  const percentileOf = (p: 'p50' | 'p95') => (values: number[]) => distributionOf(values)[p]
  const yieldRate = (row: ResultItem) =>
    (row.observability?.live_evals as { run_turns?: { yield_rate: number | null } } | undefined)?.run_turns
      ?.yield_rate ?? null
  const result = {
    paired: pairs.length,
    only_recorded: [...recorded.keys()].filter((label) => !now.has(label)),
    only_now: [...now.keys()].filter((label) => !recorded.has(label)),
    pass: {
      recorded: pairs.filter((pair) => pair.recorded.status === 'passed').length,
      now: pairs.filter((pair) => pair.now.status === 'passed').length,
      changed: passChanges,
    },
    latency_p50_ms: figure(pairs, latency, percentileOf('p50'), tolerances.latencyMs),
    latency_p95_ms: figure(pairs, latency, percentileOf('p95'), tolerances.latencyMs),
    response_rate: figure(pairs, (row) => row.metrics.audio.response_rate, meanOf, tolerances.ratio),
    delegation_accuracy: figure(
      pairs,
      (row) => row.metrics.task.delegation_accuracy,
      meanOf,
      tolerances.ratio,
    ),
    delegation_changes: delegationChanges,
    tool_argument_changes: toolChanges,
    yield_rate: figure(pairs, yieldRate, meanOf, tolerances.ratio),
  }
  const drifted =
    passChanges.length > 0 ||
    delegationChanges.length > 0 ||
    toolChanges.length > 0 ||
    result.only_recorded.length > 0 ||
    result.only_now.length > 0 ||
    [
      result.latency_p50_ms,
      result.latency_p95_ms,
      result.response_rate,
      result.delegation_accuracy,
      result.yield_rate,
    ].some((entry) => entry.drifted)
  return { ...result, drifted }
}
