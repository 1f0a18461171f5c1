// Where a final application state departs from the expected one, path by path, by the same rules the state check
// used to fail it (final-state.ts): "prescriptions[1].refills_left: expected 2, got 3". The console, the check's
// evidence and the report show these instead of the whole state as one JSON line.

import { containsExpected, expectsUnchangedState } from './final-state.ts'
import { isJsonObject, type JsonObject, jsonEqual } from './json-values.ts'
import { expectedValueMatches } from './matching.ts'

/**
 * One difference at a path of the final state. `expected` absent: the path should not exist (an unchanged state
 * gained it); `actual` absent: the final state lacks it.
 */
export interface StateDifference {
  path: string
  expected?: unknown
  actual?: unknown
}

/** How the state was compared: single-turn normalized subset (CRAWL/WALK) or RUN's exact, order-free containment. */
export type StateComparison = 'single_turn' | 'run'

/** Enough to read what went wrong; a state that differs everywhere says how many more there were. */
export const MAX_STATE_DIFFERENCES = 20
// A list item expected somewhere in a RUN list is compared with this many candidates to find the closest one.
const MAX_CANDIDATES = 100

/** `a.b[2]["odd key"]`: the path of `key` inside `path` ('' is the state itself). */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return `${path}[${JSON.stringify(key)}]`
  return path === '' ? key : `${path}.${key}`
}

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

/** `prescriptions[1].refills_left: expected 2, got 3` (or `missing`, or `expected absent`). */
export function describeStateDifference(difference: StateDifference): string {
  const expected = 'expected' in difference ? `expected ${shown(difference.expected)}` : 'expected absent'
  const actual = 'actual' in difference ? `got ${shown(difference.actual)}` : 'missing'
  return `${difference.path || '(state)'}: ${expected}, ${actual}`
}

/** The paths at which `final` fails the expected state (empty when the state check passes). */
export function stateDifferences(
  expected: JsonObject,
  initial: JsonObject,
  final: JsonObject,
  comparison: StateComparison,
): StateDifference[] {
  if (expectsUnchangedState(expected)) return changesFrom(initial, final, '')
  return comparison === 'run'
    ? containmentDifferences(expected, final, '')
    : subsetDifferences(expected, final, '')
}

/** The lines a console or report shows: at most MAX_STATE_DIFFERENCES, then how many more. */
export function describeStateDifferences(differences: readonly StateDifference[]): string[] {
  const lines = differences.slice(0, MAX_STATE_DIFFERENCES).map(describeStateDifference)
  const more = differences.length - MAX_STATE_DIFFERENCES
  return more > 0 ? [...lines, `... and ${more} more`] : lines
}

/** `{"unchanged": true}`: every path where the final state is not the initial one. */
function changesFrom(initial: unknown, final: unknown, path: string): StateDifference[] {
  const bothObjects = isJsonObject(initial) && isJsonObject(final)
  const bothLists = Array.isArray(initial) && Array.isArray(final)
  if (!bothObjects && !bothLists)
    return jsonEqual(initial, final) ? [] : [{ path, expected: initial, actual: final }]
  const was = initial as Record<string, unknown>
  const now = final as Record<string, unknown>
  const keys = bothLists
    ? Array.from({ length: Math.max(initial.length, (final as unknown[]).length) }, (_, index) => index)
    : [...new Set([...Object.keys(was), ...Object.keys(now)])]
  return keys.flatMap((key) => {
    const next = childPath(path, key)
    if (!Object.hasOwn(was, key)) return [{ path: next, actual: now[key] }]
    if (!Object.hasOwn(now, key)) return [{ path: next, expected: was[key] }]
    return changesFrom(was[key], now[key], next)
  })
}

/** Single-turn rules (expectedValueMatches): objects are subsets, lists are prefixes, scalars compare normalized. */
function subsetDifferences(expected: unknown, actual: unknown, path: string): StateDifference[] {
  if (isJsonObject(expected) && isJsonObject(actual)) {
    return Object.entries(expected).flatMap(([key, value]) =>
      Object.hasOwn(actual, key)
        ? subsetDifferences(value, actual[key], childPath(path, key))
        : [{ path: childPath(path, key), expected: value }],
    )
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    return expected.flatMap((item, index) =>
      index < actual.length
        ? subsetDifferences(item, actual[index], childPath(path, index))
        : [{ path: childPath(path, index), expected: item }],
    )
  }
  return expectedValueMatches(expected, actual) ? [] : [{ path, expected, actual }]
}

/**
 * RUN rules (containsExpected): scalars identical, objects subsets, and each expected list item contained in some
 * actual item, any order. An item no actual item contains is shown against the closest one (fewest differences).
 */
function containmentDifferences(expected: unknown, actual: unknown, path: string): StateDifference[] {
  if (isJsonObject(expected)) {
    if (!isJsonObject(actual)) return [{ path, expected, actual }]
    return Object.entries(expected).flatMap(([key, value]) =>
      Object.hasOwn(actual, key)
        ? containmentDifferences(value, actual[key], childPath(path, key))
        : [{ path: childPath(path, key), expected: value }],
    )
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path, expected, actual }]
    return expected.flatMap((item, index) => {
      if (actual.some((candidate) => containsExpected(item, candidate))) return []
      let closest: StateDifference[] | null = null
      for (const [candidate, value] of actual.slice(0, MAX_CANDIDATES).entries()) {
        const differences = containmentDifferences(item, value, childPath(path, candidate))
        if (closest === null || differences.length < closest.length) closest = differences
      }
      return closest ?? [{ path: childPath(path, index), expected: item }]
    })
  }
  return expected === actual ? [] : [{ path, expected, actual }]
}
