// Redaction at record time: what enters a cassette has already been scrubbed, so no later step has to remember
// to. Three layers, each from src/config: fields named like secrets (and GPT_LIVE_EVALS_REDACT_FIELDS) are
// replaced; the credential values this run holds are scrubbed from every string; anything shaped like an OpenAI
// key or a Bearer/Basic authorization is scrubbed whatever its source. Headers are never kept (recorder.ts keeps
// the content type only), so an Authorization header cannot reach a cassette at all.
import { MAX_OUTBOUND_DEPTH, redactText } from '../config/outbound-redaction.ts'
import { REDACTED, redactSecrets } from '../config/redact.ts'

export interface CassetteRedaction {
  /** Extra field names to redact (settings.redact_fields). */
  extraNames: readonly string[]
  /** The run's credential values (and the session token), scrubbed wherever they were copied. */
  secretValues: readonly string[]
}

/**
 * A redacted copy of JSON data: redactSecrets with outbound-redaction.ts's redactText and depth limit in the same
 * copy, equal to `redactOutbound(redactSecrets(value, ...))` (redaction.test.ts holds the two equal). A recording
 * redacts every frame it keeps, and a second copy and walk of each was most of their redaction (a CPU profile of
 * `vitest run --project unit src/cassettes/bundled-round-trip.integration.test.ts`).
 */
export function redactJson<T>(value: T, redaction: CassetteRedaction): T {
  return redactSecrets(value, {
    extraNames: redaction.extraNames,
    secretValues: redaction.secretValues,
    text: redactText,
    maxDepth: MAX_OUTBOUND_DEPTH,
  }) as T
}

/** Redacted text (a body that is not JSON, a path). */
export function redactString(text: string, redaction: CassetteRedaction): string {
  let scrubbed = text
  const longestFirst = [...redaction.secretValues].filter((secret) => secret.length >= 8)
  longestFirst.sort((a, b) => b.length - a.length)
  for (const secret of longestFirst) scrubbed = scrubbed.split(secret).join(REDACTED)
  return redactText(scrubbed)
}
