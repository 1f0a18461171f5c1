// Redaction at record time: what enters a cassette has already been scrubbed, so no later step has to remember
// to. Three layers, each from src/config: fields named like secrets (and GPT_LIVE_EVALS_REDACT_FIELDS) are
// replaced; the credential values this run holds are scrubbed from every string; anything shaped like an OpenAI
// key or a Bearer/Basic authorization is scrubbed whatever its source. Headers are never kept (recorder.ts keeps
// the content type only), so an Authorization header cannot reach a cassette at all.
import { MAX_OUTBOUND_DEPTH, redactText } from '../config/outbound-redaction.ts'
import { isSecretName, REDACTED, scrubString, secretValuesToScrub } from '../config/redact.ts'

export interface CassetteRedaction {
  /** Extra field names to redact (settings.redact_fields). */
  extraNames: readonly string[]
  /** The run's credential values (and the session token), scrubbed wherever they were copied. */
  secretValues: readonly string[]
}

/**
 * A redacted copy of JSON data: `redactOutbound(redactSecrets(value, ...))` in one copy instead of two. A recording
 * redacts every frame it keeps, and the two copies (and the second walk) were most of its frames' redaction (a CPU
 * profile of `vitest run --project unit src/cassettes/bundled-round-trip.integration.test.ts`); redaction.test.ts
 * holds the two equal.
 */
export function redactJson<T>(value: T, redaction: CassetteRedaction): T {
  const secretValues = secretValuesToScrub(value, redaction)
  return redactCopy(value, 0, redaction.extraNames, secretValues) as T
}

/**
 * What redactSecrets' copy gives at this place, then redactOutbound's walk of it at `depth`: a field named like a
 * secret (and set) is "[redacted]" before redactText reads it; a `__proto__` field never was an own field of that
 * copy (assigning it sets the prototype), so the walk never saw it.
 */
function redactCopy(
  value: unknown,
  depth: number,
  extraNames: readonly string[],
  secretValues: readonly string[],
): unknown {
  if (typeof value === 'string') return redactText(scrubString(value, secretValues))
  if (value === null || typeof value !== 'object') return value
  if (depth >= MAX_OUTBOUND_DEPTH) return REDACTED
  if (Array.isArray(value)) return value.map((item) => redactCopy(item, depth + 1, extraNames, secretValues))
  const copy: Record<string, unknown> = {}
  const record = value as Record<string, unknown>
  for (const name of Object.keys(record)) {
    if (name === '__proto__') continue
    const item = record[name]
    copy[redactText(name)] =
      isSecretName(name, extraNames) && item !== null && item !== undefined
        ? redactText(REDACTED)
        : redactCopy(item, depth + 1, extraNames, secretValues)
  }
  return copy
}

/** Redacted text (a body that is not JSON, a path). */
export function redactString(text: string, redaction: CassetteRedaction): string {
  let scrubbed = text
  const longestFirst = [...redaction.secretValues].filter((secret) => secret.length >= 8)
  longestFirst.sort((a, b) => b.length - a.length)
  for (const secret of longestFirst) scrubbed = scrubbed.split(secret).join(REDACTED)
  return redactText(scrubbed)
}
