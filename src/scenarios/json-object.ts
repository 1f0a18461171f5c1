import { z } from 'zod'

// Free-form JSON objects of the contract (tool arguments, application state, recording metadata).
// Their keys belong to the application, so they are not checked here; they must be objects, though.
export const JsonObjectSchema = z.record(z.string(), z.unknown())
export type JsonObject = z.infer<typeof JsonObjectSchema>

/** True for a JSON object (not null, not a list): the shape of a dataset, a scenario and their parts. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A non-empty string: the contract's `min_length=1` fields. */
export const nonEmptyString = () => z.string().min(1)
