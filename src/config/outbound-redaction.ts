// The last line before text leaves the process. An upstream error can quote a credential back (a gateway's 401
// body holding the Authorization header, a GPT-Live error event naming the key), and dozens of places turn an
// error into a message; instead of trusting each of them, every exit scrubs what it sends: the artifact writer
// (results, rows journal, details, events, report, junit), the worker's report of each test to the main process
// (its errors, which Vitest prints, and its meta, which holds the row) and the CLI's output.
//
// Two things are scrubbed from every string: the values of the credentials this process was configured with
// (remembered when the settings are resolved, in the main process and in each worker), and anything shaped like
// a credential whatever its source (OpenAI keys, `Bearer …`/`Basic …` authorizations).
import { REDACTED } from './redact.ts'

// Shorter values are too likely to occur by chance in ordinary text to be scrubbed by value.
const MIN_REMEMBERED_LENGTH = 8
const SK_KEY_SHAPE = /\bsk-[A-Za-z0-9_-]{16,}/g
const AUTHORIZATION_SHAPE = /\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi
// A JSON value deeper than this is not walked further (it is replaced whole): nothing we send nests that far.
export const MAX_OUTBOUND_DEPTH = 64

const remembered = new Set<string>()
let longestFirst: string[] = []

/** Remember credential values to scrub from everything this process sends out (null and short ones ignored). */
export function rememberSecretValues(values: Iterable<string | null | undefined>): void {
  let added = false
  for (const value of values) {
    if (typeof value !== 'string' || value.length < MIN_REMEMBERED_LENGTH || remembered.has(value)) continue
    remembered.add(value)
    added = true
  }
  // Longest first, so a secret that contains another is replaced whole.
  if (added) longestFirst = [...remembered].sort((a, b) => b.length - a.length)
}

/** `text` with every remembered credential and every key-shaped string replaced by "[redacted]". */
export function redactText(text: string): string {
  // An OpenAI key always holds `sk-`: the pattern runs only where its text occurs (every string of every recorded
  // protocol event comes through here).
  let scrubbed = text.includes('sk-') ? text.replace(SK_KEY_SHAPE, REDACTED) : text
  scrubbed = scrubbed.replace(AUTHORIZATION_SHAPE, `$1$2${REDACTED}`)
  for (const secret of longestFirst) {
    if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(REDACTED)
  }
  return scrubbed
}

/**
 * A copy of JSON-like data (plain objects, arrays, serialized errors) with every string — keys included —
 * scrubbed by `redactText`. Field names are not judged here (that is redactSecrets' job for settings): a row's
 * fields keep their values unless the value itself carries a credential.
 */
export function redactOutbound<T>(value: T): T {
  return walk(value, 0) as T
}

function walk(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value)
  if (value === null || typeof value !== 'object') return value
  if (depth >= MAX_OUTBOUND_DEPTH) return REDACTED
  if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1))
  if (ArrayBuffer.isView(value)) return value
  const copy: Record<string, unknown> = {}
  for (const [name, item] of Object.entries(value)) copy[redactText(name)] = walk(item, depth + 1)
  return copy
}
