// Final application state checks. Single-turn grading is lenient about spelling (normalized subset), RUN grading is
// exact but order-free for lists; both treat `{"unchanged": true}` as "nothing may have changed".

import { isJsonObject, type JsonObject, jsonEqual } from './json-values.ts'
import { expectedArgumentsMatch } from './matching.ts'

/** The scenario asks for no change at all (`{"unchanged": true}`); only the literal `true` counts. */
export function expectsUnchangedState(expected: JsonObject): boolean {
  return expected.unchanged === true
}

/**
 * Single-turn (CRAWL/WALK) final state: unchanged means exactly equal to the initial state; otherwise the expected
 * state is a normalized recursive subset of the final state. `{}` expects nothing and passes.
 */
export function verifyFinalState(expected: JsonObject, initial: JsonObject, final: JsonObject): boolean {
  if (expectsUnchangedState(expected)) return jsonEqual(initial, final)
  return expectedArgumentsMatch(expected, final)
}

/**
 * RUN containment, not normalized: scalars must be identical, objects are subsets, and a list expects each of its
 * items to be contained in some actual item (any order), which is how a reservation inside `reservations` is found.
 */
export function containsExpected(expected: unknown, actual: unknown): boolean {
  if (isJsonObject(expected)) {
    if (!isJsonObject(actual)) return false
    return Object.entries(expected).every(
      ([key, value]) => Object.hasOwn(actual, key) && containsExpected(value, actual[key]),
    )
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false
    return expected.every((item) => actual.some((candidate) => containsExpected(item, candidate)))
  }
  return expected === actual
}

/** RUN final state: unchanged means exact equality, otherwise containment. An empty expectation passes vacuously. */
export function verifyRunFinalState(expected: JsonObject, initial: JsonObject, final: JsonObject): boolean {
  if (expectsUnchangedState(expected)) return jsonEqual(initial, final)
  return containsExpected(expected, final)
}

/**
 * RUN's verified outcome: the state check only proves something when the scenario states an expectation, so an
 * empty expected state never verifies an outcome.
 */
export function runOutcomeVerified(expected: JsonObject, initial: JsonObject, final: JsonObject): boolean {
  return Object.keys(expected).length > 0 && verifyRunFinalState(expected, initial, final)
}
