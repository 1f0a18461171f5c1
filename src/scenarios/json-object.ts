import { z } from 'zod'

// Free-form JSON objects of the contract (tool arguments, application state, recording metadata).
// Their keys belong to the application, so they are not checked here; they must be objects, though.
export const JsonObjectSchema = z.record(z.string(), z.unknown())
export type JsonObject = z.infer<typeof JsonObjectSchema>

/** A non-empty string: the contract's `min_length=1` fields. */
export const nonEmptyString = () => z.string().min(1)
