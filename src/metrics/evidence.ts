// Deterministic accuracy metrics (§3.4). Inputs are metric records that may come from this run or from historical
// results, so every value is checked: unknown stays null, an explicit zero is known, invalid counts are unknown.

import { countPair, optionalCount } from './counts.ts'
import { expectedToolCount } from './golden.ts'
import { roundHalfEvenToInteger, roundToFourPlaces } from './rounding.ts'

export type MetricRecord = Readonly<Record<string, unknown>>

export interface EvidenceSources {
  /** Task-level facts: prohibited_tool_call_count, matched_tool_call_count, tool_call_coverage, delegation flags. */
  task: MetricRecord
  /** Efficiency counts: unique_tool_invocation_count, matched_tool_call_count, delegation_count, total_turns. */
  efficiency: MetricRecord
  /** Golden values (see golden.ts). */
  golden: MetricRecord
}

/** The matched count: efficiency first; the task's count only when the efficiency key is absent; then coverage. */
function matchedToolCalls(sources: EvidenceSources, expected: number): number | null {
  const { task, efficiency } = sources
  let matched: number | null = null
  if (Object.hasOwn(efficiency, 'matched_tool_call_count')) {
    matched = optionalCount(efficiency.matched_tool_call_count)
  } else if (Object.hasOwn(task, 'matched_tool_call_count')) {
    matched = optionalCount(task.matched_tool_call_count)
  }
  if (matched !== null) return matched
  const coverage = task.tool_call_coverage
  // The range test also refuses NaN and the infinities.
  if (typeof coverage === 'number' && coverage >= 0 && coverage <= 1) {
    return roundHalfEvenToInteger(coverage * expected)
  }
  return null
}

/**
 * How well the executed tools matched the expected ones, in [0, 1]. A known prohibited call gives 0. An explicitly
 * unknown (null) prohibited count can never let a score above 0 through: it turns it into null.
 */
export function toolAccuracy(sources: EvidenceSources): number | null {
  const { task, efficiency, golden } = sources
  // An absent prohibited count means none was found; a present but invalid one means unknown.
  const prohibited = Object.hasOwn(task, 'prohibited_tool_call_count')
    ? optionalCount(task.prohibited_tool_call_count)
    : 0
  if (prohibited !== null && prohibited > 0) return 0
  const withheldByUnknownProhibited = (score: number | null): number | null =>
    prohibited === null && score !== null && score > 0 ? null : score

  const expected = expectedToolCount(golden)
  const actual = optionalCount(efficiency.unique_tool_invocation_count)
  if (expected === null || actual === null) return null
  if (actual === 0 || expected === 0) return withheldByUnknownProhibited(actual === expected ? 1 : 0)

  const matched = matchedToolCalls(sources, expected)
  if (matched === null) return null
  const score = roundToFourPlaces(Math.min(matched, expected, actual) / Math.max(expected, actual))
  return withheldByUnknownProhibited(score)
}

const DELEGATION_POLICIES: ReadonlySet<unknown> = new Set(['required', 'forbidden', 'optional'])

/**
 * The binary delegation decision: 1 when a required delegation happened or a forbidden one did not. It needs a known
 * policy and a known delegation count; the exact expected count does not matter.
 */
export function delegationAccuracy(sources: EvidenceSources): number | null {
  const { task, efficiency, golden } = sources
  const policy = golden.delegation_policy
  const flaggedRequired = task.delegation_required === true
  const flaggedForbidden = task.delegation_prohibited === true
  let required = flaggedRequired || policy === 'required'
  const forbidden = flaggedForbidden || policy === 'forbidden'
  let policyKnown = DELEGATION_POLICIES.has(policy) || flaggedRequired || flaggedForbidden

  const noPolicyAtAll = (policy === undefined || policy === null) && !flaggedRequired && !flaggedForbidden
  if (noPolicyAtAll) {
    // Without any policy, a golden delegation count still says whether delegating was expected.
    const goldenDelegations = optionalCount(golden.delegations)
    if (goldenDelegations !== null) {
      required = goldenDelegations > 0
      policyKnown = true
    }
  }

  const actual = optionalCount(efficiency.delegation_count)
  if (actual === null || !policyKnown) return null
  const delegated = actual > 0
  return (!required || delegated) && !(forbidden && delegated) ? 1 : 0
}

export interface EvidenceMetrics {
  tool_accuracy: number | null
  delegation_accuracy: number | null
  /** "actual/expected" pairs, null when either side is unknown. */
  tool_calls: string | null
  delegations: string | null
  turns: string | null
}

export type EvidenceOverrides = Partial<Record<'tool_accuracy' | 'delegation_accuracy', unknown>>

function isScore(value: unknown): value is number {
  // NaN and the infinities fail the range test.
  return typeof value === 'number' && value >= 0 && value <= 1
}

/**
 * Overrides can refine a computable score or withhold it (null), never invent one: when the computed score is
 * unknown the override is ignored. An override that is not a score in [0, 1] withholds.
 */
function applyOverride(computed: number | null, overrides: EvidenceOverrides, key: keyof EvidenceOverrides) {
  if (computed === null || !Object.hasOwn(overrides, key)) return computed
  const value = overrides[key]
  return isScore(value) ? value : null
}

/** Accuracies and count pairs of one row. The boolean `delegation_observed` is never read: it is not a count. */
export function buildEvidenceMetrics(
  sources: EvidenceSources,
  overrides: EvidenceOverrides = {},
): EvidenceMetrics {
  const { efficiency, golden } = sources
  return {
    tool_accuracy: applyOverride(toolAccuracy(sources), overrides, 'tool_accuracy'),
    delegation_accuracy: applyOverride(delegationAccuracy(sources), overrides, 'delegation_accuracy'),
    tool_calls: countPair(efficiency.unique_tool_invocation_count, expectedToolCount(golden)),
    delegations: countPair(efficiency.delegation_count, golden.delegations),
    turns: countPair(efficiency.total_turns, golden.total_turns),
  }
}
