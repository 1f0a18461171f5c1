// Small JSON helpers shared by the tool runtime and both restaurant copies. Tools receive and return
// plain JSON, so a structured clone is an exact deep copy and keeps callers from aliasing our state.
import type { JsonObject } from '../offline-behaviour.ts'

/** True for a plain JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A deep copy of a JSON value, so no caller can reach into state we own. */
export function deepCopy<T>(value: T): T {
  return structuredClone(value)
}
