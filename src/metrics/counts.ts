// Count values and "actual/expected" pairs with the toolkit's null semantics: unknown is null, never 0.

/** A count is only known when it is a non-negative integer; bools, floats, strings, negatives, NaN are unknown. */
export function optionalCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
}

/** `"actual/expected"`, or null when either side is unknown. */
export function countPair(actual: unknown, expected: unknown): string | null {
  const knownActual = optionalCount(actual)
  const knownExpected = optionalCount(expected)
  if (knownActual === null || knownExpected === null) return null
  return `${knownActual}/${knownExpected}`
}

export interface CountPair {
  actual: number
  expected: number
}

const COUNT_PAIR_TEXT = /^(\d+)\/(\d+)$/

/**
 * Reads a count pair written as `"a/b"` or `{actual, expected}`. Anything else (negative or float parts, bools,
 * `"0.0/0"`, `"True/0"`, `"0/"`, `"0/0/0"`, a missing key, null) is unknown.
 */
export function parseCountPair(value: unknown): CountPair | null {
  if (typeof value === 'string') {
    const match = COUNT_PAIR_TEXT.exec(value)
    if (match === null) return null
    return { actual: Number(match[1]), expected: Number(match[2]) }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    const actual = optionalCount(record.actual)
    const expected = optionalCount(record.expected)
    if (actual === null || expected === null) return null
    return { actual, expected }
  }
  return null
}
