// Small helpers over parsed JSON values. Grading compares tool arguments and application state, which arrive as
// parsed JSON (or deep copies of it), so only plain objects, arrays and scalars need handling.

export type JsonObject = Record<string, unknown>

/** A JSON object (not an array, not null). Class instances never reach grading, so no prototype check. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Structural equality of two JSON values: key order is ignored, scalars compare with `===`.
 * Unlike Python's `==`, `true` never equals `1`: a state that stored `1` where `true` was expected changed.
 */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false
    return left.every((item, index) => jsonEqual(item, right[index]))
  }
  if (isJsonObject(left) || isJsonObject(right)) {
    if (!isJsonObject(left) || !isJsonObject(right)) return false
    const leftKeys = Object.keys(left)
    if (leftKeys.length !== Object.keys(right).length) return false
    return leftKeys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]))
  }
  return left === right
}
