import { z } from 'zod'
import { MAX_JSON_DEPTH, pathBeyondDepth, TOO_DEEP_MESSAGE } from './limits.ts'

// Free-form JSON objects of the contract (tool arguments, application state, recording metadata).
// Their keys belong to the application, so they are not checked here; they must be objects, though.
//
// The parsed object is kept as it is, not copied: zod's record copies keys one by one and drops
// `__proto__`, which JSON.parse keeps as an ordinary own key. The reference contract accepts such keys,
// so `__proto__`, `constructor` and `prototype` stay intact as data (never on a prototype): the
// application state and tool arguments a grader compares are the ones the author wrote.

/** True for a JSON object (not null, not a list): the shape of a dataset, a scenario and their parts. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A JSON value as an author writes it in a scenario: what the graders can compare (no functions, dates, undefined). */
export type JsonValueInput =
  | string
  | number
  | boolean
  | null
  | readonly JsonValueInput[]
  | { readonly [key: string]: JsonValueInput }

/** A JSON object as an author writes it (tool arguments, application state, recording metadata). */
export type JsonObjectInput = { readonly [key: string]: JsonValueInput }

/**
 * Types the input of a schema that accepts anything at run time. The contract's lists and JSON objects start from
 * `z.unknown()` so that a wrong value is reported with its path, never refused before it is looked at; without
 * this, `z.input` of those fields (what defineScenario() takes) would be `unknown` and a typo would type-check.
 * Only the static input type changes: parsing is the same schema.
 */
export function withInputType<Input>() {
  return <S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, Input> =>
    schema as unknown as z.ZodType<z.output<S>, Input>
}

/** A JSON object whose own keys, whatever they are called, come out exactly as they went in. */
export const JsonObjectSchema = withInputType<JsonObjectInput>()(
  z.unknown().transform((value, ctx): Record<string, unknown> => {
    if (!isJsonObject(value)) {
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'record',
        input: value,
        message: 'must be a JSON object',
      })
      return z.NEVER
    }
    // The loader refuses deep documents before this runs; scenarios parsed without it (inline scenarios in a
    // spec file) get the same bound here, relative to the object, so later stages can recurse safely.
    const tooDeep = pathBeyondDepth(value, 1, MAX_JSON_DEPTH)
    if (tooDeep !== null) {
      ctx.addIssue({
        code: 'custom',
        path: tooDeep,
        message: TOO_DEEP_MESSAGE,
      })
      return z.NEVER
    }
    return value
  }),
)
export type JsonObject = z.infer<typeof JsonObjectSchema>

/**
 * A JSON object whose values all match `valueSchema`, keys kept as written (see above). Values are checked,
 * not transformed, so the object is returned as it is.
 */
export function jsonRecordOf<T extends z.ZodType>(valueSchema: T) {
  const checked = JsonObjectSchema.transform((object, ctx): Record<string, z.output<T>> => {
    let reported = 0
    for (const [key, value] of Object.entries(object)) {
      const result = valueSchema.safeParse(value, { reportInput: true })
      if (result.success) continue
      for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] })
      // A million bad values are one mistake made a million times: the first ones say what it is.
      if (++reported === MAX_LIST_ITEMS) break
    }
    return object as Record<string, z.output<T>>
  })
  return withInputType<{ readonly [key: string]: z.input<T> }>()(checked)
}

/** Most items any list of the contract may hold; far above real datasets (they hold tens). */
export const MAX_LIST_ITEMS = 1000

/**
 * A list of `item`s of at most MAX_LIST_ITEMS items. The length is checked before any item is: a list of a
 * million wrong items is one violation, not a million (which would take gigabytes to report).
 */
export function listOf<T extends z.ZodType>(item: T, minItems = 0) {
  const list = minItems > 0 ? z.array(item).min(minItems) : z.array(item)
  const checked = z
    .unknown()
    .superRefine((value, ctx) => {
      if (Array.isArray(value) && value.length > MAX_LIST_ITEMS) {
        ctx.addIssue({
          code: 'too_big',
          origin: 'array',
          maximum: MAX_LIST_ITEMS,
          inclusive: true,
          input: value,
          message: `must have at most ${MAX_LIST_ITEMS} items`,
        })
      }
    })
    .pipe(list)
  return withInputType<readonly z.input<T>[]>()(checked)
}

/** A non-empty string: the contract's `min_length=1` fields. */
export const nonEmptyString = () => z.string().min(1)
