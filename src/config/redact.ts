// Secrets never reach a log, a results file or an artifact. Fields are judged by their name (word by word,
// so `api_key` and `clientAssistantToken` are secret while `max_output_tokens` is not), plus any names a
// person lists in GPT_LIVE_EVALS_REDACT_FIELDS; and a secret's value is also scrubbed wherever it was
// copied into another string (a URL, an error message).
import type { PhaseSettings } from './schema.ts'

export const REDACTED = '[redacted]'

const SECRET_WORDS = new Set([
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'authorization',
  'cookie',
  'bearer',
])
// OpenAI-style keys, caught even under an innocent field name.
const OPENAI_KEY_PATTERN = /\bsk-[A-Za-z0-9_-]{16,}/g
// Shorter values are too likely to occur by chance in ordinary text to be scrubbed by value.
const MIN_SCRUBBED_SECRET_LENGTH = 8

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
}

// Whether a name has a secret word, by name: the trace redacts every protocol event, whose few field names
// recur thousands of times a run, and splitting them into words again each time was a visible CPU cost.
const SECRET_WORD_NAMES = new Map<string, boolean>()
const MAX_REMEMBERED_NAMES = 10_000

function hasSecretWord(name: string): boolean {
  let secret = SECRET_WORD_NAMES.get(name)
  if (secret === undefined) {
    secret = nameWords(name).some((word) => SECRET_WORDS.has(word))
    if (SECRET_WORD_NAMES.size >= MAX_REMEMBERED_NAMES) SECRET_WORD_NAMES.clear()
    SECRET_WORD_NAMES.set(name, secret)
  }
  return secret
}

/** Whether a field called `name` holds a secret. `extraNames` match whole names, case-insensitively. */
export function isSecretName(name: string, extraNames: readonly string[] = []): boolean {
  if (extraNames.length > 0) {
    const lower = name.toLowerCase()
    if (extraNames.some((extra) => extra.toLowerCase() === lower)) return true
  }
  return hasSecretWord(name)
}

function collectSecretValues(
  value: unknown,
  extraNames: readonly string[],
  found: Set<string>,
  secret = false,
): void {
  if (typeof value === 'string') {
    if (secret && value.length >= MIN_SCRUBBED_SECRET_LENGTH) found.add(value)
    return
  }
  if (Array.isArray(value)) {
    for (const item of value) collectSecretValues(item, extraNames, found, secret)
    return
  }
  if (value !== null && typeof value === 'object') {
    // Object.keys: the same names in the same order as Object.entries, without an array per field.
    const record = value as Record<string, unknown>
    for (const name of Object.keys(record)) {
      collectSecretValues(record[name], extraNames, found, secret || isSecretName(name, extraNames))
    }
  }
}

function scrubString(text: string, secretValues: readonly string[]): string {
  // The trace scrubs every string of every protocol event; almost none holds a key, so each replacement runs
  // only where its text occurs (a key always starts with `sk-`).
  let scrubbed = text.includes('sk-') ? text.replace(OPENAI_KEY_PATTERN, REDACTED) : text
  for (const secret of secretValues) {
    if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(REDACTED)
  }
  return scrubbed
}

interface RedactWalk {
  extraNames: readonly string[]
  secretValues: readonly string[]
  text: ((text: string) => string) | null
  maxDepth: number
}

function redactValue(value: unknown, walk: RedactWalk, depth: number): unknown {
  if (typeof value === 'string') {
    const scrubbed = scrubString(value, walk.secretValues)
    return walk.text === null ? scrubbed : walk.text(scrubbed)
  }
  if (value === null || typeof value !== 'object') return value
  if (depth >= walk.maxDepth) return REDACTED
  if (Array.isArray(value)) return value.map((item) => redactValue(item, walk, depth + 1))
  const copy: Record<string, unknown> = {}
  const record = value as Record<string, unknown>
  for (const name of Object.keys(record)) {
    // A `__proto__` field (JSON.parse makes it an own field) would set the copy's prototype, not a field of it.
    if (name === '__proto__') continue
    const item = record[name]
    const key = walk.text === null ? name : walk.text(name)
    // A secret that is not set stays null, so a report can still say "no key was configured".
    copy[key] =
      isSecretName(name, walk.extraNames) && item !== null && item !== undefined
        ? (walk.text?.(REDACTED) ?? REDACTED)
        : redactValue(item, walk, depth + 1)
  }
  return copy
}

export interface RedactOptions {
  /** Field names to treat as secret besides the built-in words (e.g. from GPT_LIVE_EVALS_REDACT_FIELDS). */
  extraNames?: readonly string[]
  /** Known secret values to scrub from every string, e.g. the API key from the settings. */
  secretValues?: readonly string[]
  /**
   * A further scrub of every string, field names included, in the same copy (a cassette's frames take
   * outbound-redaction.ts's redactText this way, rather than a second copy of each frame); default none.
   */
  text?: (text: string) => string
  /** Deeper than this a value is replaced whole by "[redacted]"; default no limit. */
  maxDepth?: number
}

/** A deep copy of `value` (JSON-like data) with secret fields replaced by "[redacted]" and secret values scrubbed. */
export function redactSecrets(value: unknown, options: RedactOptions = {}): unknown {
  const extraNames = options.extraNames ?? []
  const found = new Set(options.secretValues?.filter((secret) => secret.length >= MIN_SCRUBBED_SECRET_LENGTH))
  collectSecretValues(value, extraNames, found)
  // Longest first, so a secret that contains another is replaced whole.
  const secretValues = [...found].sort((a, b) => b.length - a.length)
  const walk = {
    extraNames,
    secretValues,
    text: options.text ?? null,
    maxDepth: options.maxDepth ?? Infinity,
  }
  return redactValue(value, walk, 0)
}

/**
 * The credentials a run holds, as values to scrub wherever they were copied (a results configuration block, a
 * trace): fields named like secrets are redacted by name, but a key pasted into an ordinary field only by value.
 */
export function credentialValues(settings: Pick<PhaseSettings, 'credentials'>): string[] {
  return Object.values(settings.credentials).filter((value): value is string => value !== null)
}

/** The settings as plain data safe to print or store: credentials and other secret-like values redacted. */
export function describeSettings(settings: PhaseSettings): Record<string, unknown> {
  return redactSecrets(settings, { extraNames: settings.redact_fields }) as Record<string, unknown>
}
