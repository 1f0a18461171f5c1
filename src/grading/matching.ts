// Matching primitives shared by every grader: does an observed tool call (or state) satisfy an expectation?
// Expectations are partial on purpose: a scenario names the arguments that matter and ignores the rest.

import { isJsonObject, type JsonObject } from './json-values.ts'

// Python's `[^\w\s]` is Unicode-aware: letters, digits/numerics and "_" are word characters.
const NON_WORD_NON_SPACE = /[^\p{L}\p{N}_\s]/gu
const WHITESPACE_RUN = /\s+/gu

/** How a value reads as text before normalization, using Python's spellings so "None"/"True" compare alike. */
function valueAsText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return 'None'
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (typeof value === 'number' || typeof value === 'bigint') return String(value)
  return JSON.stringify(value)
}

/**
 * Text form used to compare spoken-style values: case-folded, punctuation turned into spaces, whitespace collapsed
 * and trimmed (one final trim covers leading/trailing whitespace and punctuation alike).
 * "Window-seat" and "window seat" become equal; "Maya" and "Amaya" stay different.
 */
export function normalizeArgumentText(value: unknown): string {
  return valueAsText(value).toLowerCase().replace(NON_WORD_NON_SPACE, ' ').replace(WHITESPACE_RUN, ' ').trim()
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number'
}

/** One expected value against one actual value, recursively (see expectedArgumentsMatch). */
export function expectedValueMatches(expected: unknown, actual: unknown): boolean {
  if (isJsonObject(expected) && isJsonObject(actual)) return expectedArgumentsMatch(expected, actual)
  if (Array.isArray(expected) && Array.isArray(actual)) {
    // A list expectation is a prefix: the first items must match by position, later actual items are free.
    if (expected.length > actual.length) return false
    return expected.every((item, index) => expectedValueMatches(item, actual[index]))
  }
  // Booleans compare by identity so that `true` never passes for `1` or "true".
  if (typeof expected === 'boolean' || typeof actual === 'boolean') return expected === actual
  if (isNumber(expected) && isNumber(actual)) return expected === actual
  // Everything else (strings, numbers against strings, mixed shapes) compares as normalized text: "2" matches 2.
  return normalizeArgumentText(expected) === normalizeArgumentText(actual)
}

/**
 * Recursive subset match: every expected key must exist in `actual` with a matching value; extra actual keys are
 * ignored. An empty expectation matches any object.
 */
export function expectedArgumentsMatch(expected: JsonObject, actual: unknown): boolean {
  if (!isJsonObject(actual)) return false
  return Object.entries(expected).every(
    ([key, value]) => Object.hasOwn(actual, key) && expectedValueMatches(value, actual[key]),
  )
}

/**
 * Maximum one-to-one assignment of expectations to observations (Kuhn's augmenting paths): each observation can
 * satisfy at most one expectation, so two identical expectations need two matching observations.
 * Returns, per expectation index, the observation index assigned to it or null.
 */
export function maximumExpectedAssignment<E, O>(
  expected: readonly E[],
  observed: readonly O[],
  matches: (expectation: E, observation: O) => boolean,
): (number | null)[] {
  const candidates = expected.map((expectation) =>
    observed.flatMap((observation, index) => (matches(expectation, observation) ? [index] : [])),
  )
  const ownerOfObservation: (number | null)[] = observed.map(() => null)

  const tryAssign = (expectationIndex: number, visited: boolean[]): boolean => {
    for (const observationIndex of candidates[expectationIndex] ?? []) {
      if (visited[observationIndex]) continue
      visited[observationIndex] = true
      const owner = ownerOfObservation[observationIndex] ?? null
      if (owner === null || tryAssign(owner, visited)) {
        ownerOfObservation[observationIndex] = expectationIndex
        return true
      }
    }
    return false
  }

  for (let index = 0; index < expected.length; index += 1) {
    tryAssign(
      index,
      observed.map(() => false),
    )
  }
  const assignment: (number | null)[] = expected.map(() => null)
  ownerOfObservation.forEach((owner, observationIndex) => {
    if (owner !== null) assignment[owner] = observationIndex
  })
  return assignment
}

/** How many expectations a maximum one-to-one assignment satisfies. */
export function uniqueExpectedMatches<E, O>(
  expected: readonly E[],
  observed: readonly O[],
  matches: (expectation: E, observation: O) => boolean,
): number {
  return maximumExpectedAssignment(expected, observed, matches).filter((index) => index !== null).length
}
