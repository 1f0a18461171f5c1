import OpenAI from 'openai'
import { buildURL } from 'openai/resources/live/internal-base'
import { z } from 'zod'
import { LiveSessionError } from './errors.ts'

/** The OpenAI API. Passed explicitly so an ambient OPENAI_BASE_URL never silently redirects a live run. */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1'

export const liveEndpointSettingsSchema = z.strictObject({
  /** The API key, or in offline mode the per-session bearer token registered with the offline server. */
  apiKey: z
    .string()
    .min(1, 'apiKey must be a non-empty string (OPENAI_API_KEY, or the offline session token)'),
  /** HTTP(S) base URL of the API, as given to the openai client; LiveWS turns it into ws(s)://…/live/sessions. */
  baseURL: z.string().min(1).optional(),
  /** Allows plain `ws://` to a loopback host only (the offline server). Never allows it to any other host. */
  allowInsecureLoopback: z.boolean().default(false),
  /** Deadline for the connection to open and `session.started` to arrive. */
  startTimeoutMs: z.number().int().positive().default(15_000),
  /** Deadline for `session.closed` after `session.close`. */
  closeTimeoutMs: z.number().int().positive().default(15_000),
})

export type LiveEndpointSettingsInput = z.input<typeof liveEndpointSettingsSchema>
export type LiveEndpointSettings = z.infer<typeof liveEndpointSettingsSchema>

export interface ResolvedLiveEndpoint {
  settings: LiveEndpointSettings
  /** The openai client LiveWS will use; built with the explicit base URL and no retries. */
  client: OpenAI
  /** The exact WebSocket URL LiveWS will dial (computed by the SDK's own builder). */
  url: URL
}

/** The variables a user sets for the GPT-Live endpoint; refusals name them rather than the code settings. */
export const LIVE_ENDPOINT_VARIABLE = 'OPENAI_LIVE_ENDPOINT'
export const INSECURE_LOOPBACK_VARIABLE = 'OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK'

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]'])

/** True for 127.0.0.0/8, ::1 and `localhost`: the only hosts where an unencrypted socket stays on this machine. */
export function isLoopbackHost(hostname: string): boolean {
  if (LOOPBACK_HOSTS.has(hostname.toLowerCase())) return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}

function refuse(message: string, kind: 'insecure_endpoint' | 'invalid_settings'): never {
  throw new LiveSessionError(message, { stage: 'configuration', kind })
}

/** Query parameter names that look like they carry a secret (api_key, access_token, X-Amz-Signature, auth, …). */
const CREDENTIAL_PARAMETER = /key|token|secret|password|auth|signature/i

/** A parameter name fit to print: ordinary identifiers are shown; anything else could be a pasted secret. */
const parameterLabel = (name: string) =>
  /^[A-Za-z_][A-Za-z0-9_.-]{0,39}$/.test(name) ? JSON.stringify(name) : 'a parameter whose name is not shown'

/**
 * Refuses secrets riding in the URL outside the Authorization header: a credential-like query parameter or any
 * fragment (where implicit-flow tokens live). Such URLs end up in logs, artifacts and error messages, so the
 * refusal names the parameter but never its value, and never the fragment.
 */
function refuseCredentialCarriers(base: URL): void {
  const suspicious = [...new Set(base.searchParams.keys())].filter((name) => CREDENTIAL_PARAMETER.test(name))
  if (suspicious.length > 0) {
    refuse(
      `baseURL carries credential-like query parameters (${suspicious.map(parameterLabel).join(', ')}); ` +
        'remove them and pass the key as apiKey instead',
      'insecure_endpoint',
    )
  }
  // `new URL('…#')` leaves `hash` empty, so the raw text decides whether a fragment was given at all.
  if (base.hash !== '' || base.href.endsWith('#')) {
    refuse(
      'baseURL carries a #fragment; remove it (a base URL has no use for one, and secrets hide there)',
      'insecure_endpoint',
    )
  }
}

/**
 * Validates endpoint settings and applies the transport security rules before any socket exists:
 * credentials inside the URL (user:password@, credential-like query parameters, fragments) are refused (they
 * would travel outside the Authorization header and leak into logs), `wss` is required except for loopback hosts with an explicit `allowInsecureLoopback` opt-in.
 */
export function resolveLiveEndpoint(input: LiveEndpointSettingsInput): ResolvedLiveEndpoint {
  const parsed = liveEndpointSettingsSchema.safeParse(input)
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(settings)'}: ${issue.message}`,
    )
    refuse(`invalid live endpoint settings: ${problems.join('; ')}`, 'invalid_settings')
  }
  const settings = parsed.data
  const baseURL = settings.baseURL ?? DEFAULT_OPENAI_BASE_URL

  let base: URL
  try {
    base = new URL(baseURL)
  } catch {
    refuse(`baseURL is not an absolute URL: ${JSON.stringify(baseURL)}`, 'invalid_settings')
  }
  if (base.username !== '' || base.password !== '') {
    refuse(
      'baseURL carries credentials (user:password@host); remove them and pass the key as apiKey instead',
      'insecure_endpoint',
    )
  }
  refuseCredentialCarriers(base)
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(base.protocol)) {
    refuse(`baseURL must use http(s) or ws(s), got ${base.protocol}`, 'invalid_settings')
  }

  const client = new OpenAI({ apiKey: settings.apiKey, baseURL, maxRetries: 0 })
  const url = buildURL(client, {})
  if (url.protocol !== 'wss:') {
    // Named as the user wrote it (http:// in OPENAI_LIVE_ENDPOINT), not as LiveWS rewrote it (ws://).
    const given = `${base.protocol}//`
    if (!isLoopbackHost(url.hostname)) {
      refuse(
        `refusing unencrypted ${given} to ${url.hostname}: outside loopback the session needs wss (give an https:// ${LIVE_ENDPOINT_VARIABLE})`,
        'insecure_endpoint',
      )
    }
    if (!settings.allowInsecureLoopback) {
      refuse(
        `refusing unencrypted ${given} to loopback ${url.host}: set ${INSECURE_LOOPBACK_VARIABLE}=1 to allow it (meant for the offline server)`,
        'insecure_endpoint',
      )
    }
  }
  return { settings, client, url }
}
