// Golden (reference) values that count pairs and accuracies compare against, per phase.

import type { ExpectedOutcome } from '../grading/scenario-facts.ts'
import { optionalCount } from './counts.ts'

export type DelegationPolicy = ExpectedOutcome['delegation']

export interface GoldenValues {
  total_turns: number | null
  /** One entry per expected tool call; `count` defaults to 1 and an explicit null makes the total unknown. */
  tool_calls: { name: string; count: number | null }[]
  delegations: number | null
  delegation_policy: DelegationPolicy
}

/** A single-turn reference is one request and one response, one call per required tool, and a delegation only
 * when the policy requires it (an optional policy expects 0, so one observed delegation reports "1/0"). */
export function singleTurnGolden(expected: ExpectedOutcome): GoldenValues {
  return {
    total_turns: 2,
    tool_calls: expected.tools.required.map((call) => ({ name: call.name, count: 1 })),
    delegations: expected.delegation === 'required' ? 1 : 0,
    delegation_policy: expected.delegation,
  }
}

/**
 * RUN's reference comes from the scenario's golden path. The contract already replaced `turns: 0` by the number of
 * steps when steps are listed, so `turns` is used as parsed.
 */
export function runGolden(expected: ExpectedOutcome): GoldenValues {
  const { turns, delegations } = expected.golden_path
  return {
    total_turns: turns,
    tool_calls: expected.tools.required.map((call) => ({ name: call.name, count: 1 })),
    delegations,
    delegation_policy: expected.delegation,
  }
}

/**
 * Sum of the golden tool-call counts. A missing `count` is 1; an explicit null or invalid count, a missing list or a
 * malformed entry makes the whole expected value unknown.
 */
export function expectedToolCount(golden: Readonly<Record<string, unknown>>): number | null {
  const calls = golden.tool_calls
  if (!Array.isArray(calls)) return null
  let total = 0
  for (const call of calls) {
    if (typeof call !== 'object' || call === null || Array.isArray(call)) return null
    const record = call as Record<string, unknown>
    const count = Object.hasOwn(record, 'count') ? optionalCount(record.count) : 1
    if (count === null) return null
    total += count
  }
  return total
}
