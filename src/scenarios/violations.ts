import type { z } from 'zod'
import { quoteText } from './quote.ts'

// A dataset problem names the file, the scenario when known, the JSON path and the broken rule, so a
// person can fix every problem of a dataset in one pass.

export interface DatasetViolation {
  file: string
  scenarioId?: string
  /** JSON path such as `scenarios[3].expected.tools.required[0].name`; empty for the whole file. */
  path: string
  message: string
}

export class DatasetValidationError extends Error {
  readonly violations: readonly DatasetViolation[]

  constructor(violations: readonly DatasetViolation[]) {
    super(describeViolations(violations))
    this.name = 'DatasetValidationError'
    this.violations = violations
  }
}

export function describeViolations(violations: readonly DatasetViolation[]): string {
  const files = [...new Set(violations.map((violation) => violation.file))]
  const lines: string[] = []
  for (const file of files) {
    const own = violations.filter((violation) => violation.file === file)
    lines.push(`${file}: ${own.length} problem${own.length === 1 ? '' : 's'}; fix them before running:`)
    for (const violation of own) lines.push(`  - ${describeViolation(violation)}`)
  }
  return lines.join('\n')
}

function describeViolation(violation: DatasetViolation): string {
  const where = violation.path === '' ? '(file)' : violation.path
  const scenario = violation.scenarioId === undefined ? '' : ` [scenario ${shownId(violation.scenarioId)}]`
  return `${where}${scenario}: ${violation.message}`
}

/** An id as a listing shows it: plain when short and tame, else quoted and cut (an id can be megabytes long). */
function shownId(id: string): string {
  return PLAIN_ID.test(id) ? id : quoteText(id)
}
const PLAIN_ID = /^[A-Za-z0-9_.:-]{1,40}$/

/** Unknown fields of one object listed by name; the rest are one summary problem. */
export const MAX_LISTED_UNKNOWN_KEYS = 100

/** Longest key a path shows as it is; longer ones are quoted as a short prefix. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/

export function formatJsonPath(path: readonly PropertyKey[]): string {
  let text = ''
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`
    else if (typeof key === 'string' && PLAIN_KEY.test(key)) text += text === '' ? key : `.${key}`
    else text += `[${quoteText(String(key))}]`
  }
  return text
}

/** Plain problems from one zod issue, paths relative to the value that was parsed. */
export function problemsOfIssue(issue: z.core.$ZodIssue): { path: PropertyKey[]; message: string }[] {
  if (issue.code === 'unrecognized_keys') {
    // No more of them than a dataset's listing can show: the rest are counted, not described one by one.
    const listed = issue.keys.slice(0, MAX_LISTED_UNKNOWN_KEYS)
    const more = issue.keys.length - listed.length
    const summary =
      more > 0
        ? [{ path: [...issue.path], message: `and ${more} more unknown fields (not listed one by one)` }]
        : []
    return [
      ...listed.map((key) => ({
        path: [...issue.path, key],
        message: `unknown field ${quoteText(key)}: schema 1.0 does not define it (check the spelling or remove it)`,
      })),
      ...summary,
    ]
  }
  return [{ path: issue.path, message: messageOfIssue(issue) }]
}

function messageOfIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'missing required field'
      return `must be ${typeName(issue.expected)}, got ${describeValue(issue.input)}`
    case 'invalid_value':
      if (issue.input === undefined) return `missing required field (one of ${quoteValues(issue.values)})`
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}, got ${describeValue(issue.input)}`
        : `must be one of ${quoteValues(issue.values)}, got ${describeValue(issue.input)}`
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty'
      if (issue.origin === 'array')
        return `must have at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`
      return `must be ${issue.inclusive === false ? '>' : '>='} ${issue.minimum}, got ${describeValue(issue.input)}`
    case 'too_big':
      if (issue.origin === 'array' && Array.isArray(issue.input))
        return `must have at most ${issue.maximum} items, got ${issue.input.length}`
      return `must be ${issue.inclusive === false ? '<' : '<='} ${issue.maximum}, got ${describeValue(issue.input)}`
    case 'invalid_union':
      return `has an unsupported value ${describeValue(issue.input)} (expected a string, number or boolean)`
    default:
      return issue.message
  }
}

function quoteValues(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ')
}

function typeName(expected: string): string {
  if (expected === 'record' || expected === 'object') return 'a JSON object'
  if (expected === 'array') return 'a list'
  if (expected === 'int') return 'an integer'
  return `a ${expected}`
}

/** A value an author wrote, shown by its kind or (for scalars) a short prefix; never the whole of it. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string') return quoteText(value)
  return String(value)
}
