import type { z } from 'zod'
import { isJsonObject } from './json-object.ts'

// Zod skips an object's refinements once any of its fields failed, so a typo in one field would hide
// every cross-field violation of the same scenario. A rule given `{ when: whenParsed(...) }` runs as
// soon as the fields it reads parsed, whatever happened to the others, and a dataset's author sees all
// of its problems in one pass.

type FieldPath = readonly PropertyKey[]

/** In a field path, stands for every item of a list: `['steps', EACH, 'id']` is the id of each step. */
export const EACH: unique symbol = Symbol('each item')

// Issues that leave every field with its declared type: unknown keys (the known fields are intact) and
// other rules' violations (rules only run on fields that parsed). Only the other issues block a rule.
const TYPE_SAFE_CODES: ReadonlySet<string> = new Set(['unrecognized_keys', 'custom'])

/** Runs a refinement when the value is an object and none of `fields` (paths relative to it) has an issue. */
export function whenParsed(...fields: FieldPath[]): (payload: z.core.ParsePayload) => boolean {
  return (payload) =>
    isJsonObject(payload.value) &&
    payload.issues.every(
      (issue) =>
        TYPE_SAFE_CODES.has(issue.code) || !fields.some((field) => overlaps(issue.path ?? [], field)),
    )
}

/** One path lies inside the other (either way): a problem at `a.b` taints the field `a.b.c`, and one at `a.b.c` the field `a.b`. */
function overlaps(issuePath: FieldPath, field: FieldPath): boolean {
  const shared = Math.min(issuePath.length, field.length)
  for (let index = 0; index < shared; index++) {
    const key = field[index]
    if (key === EACH ? typeof issuePath[index] !== 'number' : issuePath[index] !== key) return false
  }
  return true
}
