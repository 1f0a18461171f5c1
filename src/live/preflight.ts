// One cheap check that a GPT-Live endpoint answers before a live run starts: open a session with the smallest
// configuration, wait for `session.started`, close it. A wrong key or a dead endpoint is then one message before
// the first scenario instead of the same failure in every scenario, each after its own start deadline.
import { LiveSessionError } from './errors.ts'
import { LiveSession } from './session.ts'

export interface LivePreflightSettings {
  apiKey: string
  baseURL?: string
  allowInsecureLoopback: boolean
  /** The model the run uses; the preflight session starts with it, so an unknown model is caught too. */
  model: string
  /** Deadline for the connection, `session.started`, and again for `session.closed`. */
  timeoutMs: number
}

/** Why the endpoint cannot serve the run: where it was, what answered, and whether the key or the address is wrong. */
export interface LivePreflightProblem {
  /** The WebSocket URL dialled (endpoint rules refuse URLs that carry credentials, so it is safe to print). */
  url: string
  /** What answered, in a few words: "HTTP 401", "connection refused (ECONNREFUSED)", "server error invalid_api_key". */
  status: string
  /**
   * `credentials`: the key was refused; `address`: nothing usable answered there; `settings`: the endpoint
   * settings were refused before dialling (`status` says why); `model`: the endpoint answered and refused the
   * session's model; `other`: anything else.
   */
  blame: 'credentials' | 'address' | 'settings' | 'model' | 'other'
}

const CREDENTIAL_CODES = new Set([
  'invalid_api_key',
  'insufficient_quota',
  'account_deactivated',
  'billing_hard_limit_reached',
])

/** The network error code (ECONNREFUSED, ENOTFOUND, …) somewhere in the cause chain, if any. */
export function networkCode(error: unknown): string | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    const code = (current as NodeJS.ErrnoException).code
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code
    current = current.cause
  }
  return null
}

/** What a failed start says about the endpoint, in the words a user needs. */
export function describeLivePreflightFailure(error: unknown, url: string): LivePreflightProblem {
  if (error instanceof LiveSessionError && error.serverError !== undefined) {
    const code = error.serverError.code ?? 'no code'
    // The service refuses an unknown model on session.start with model_not_found on `session.model`.
    const model = code === 'model_not_found' || error.serverError.param === 'session.model'
    return {
      url,
      status: `server error ${code}: ${error.serverError.message}`,
      blame: CREDENTIAL_CODES.has(code) ? 'credentials' : model ? 'model' : 'other',
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  // ws reports a refused upgrade as "Unexpected server response: 401".
  const http = /Unexpected server response: (\d{3})/.exec(message)
  if (http !== null) {
    const status = Number(http[1])
    return {
      url,
      status: `HTTP ${status}`,
      blame: status === 401 || status === 403 ? 'credentials' : status === 429 ? 'credentials' : 'address',
    }
  }
  const code = networkCode(error)
  if (code !== null) {
    const words =
      code === 'ECONNREFUSED'
        ? 'connection refused'
        : code === 'ENOTFOUND'
          ? 'host not found'
          : 'network error'
    return { url, status: `${words} (${code})`, blame: 'address' }
  }
  if (error instanceof LiveSessionError && error.kind === 'timeout') {
    return { url, status: 'no answer in time', blame: 'address' }
  }
  return { url, status: message.replace(/^GPT-Live session \w+: /, ''), blame: 'other' }
}

/** Opens and closes one session; null when the endpoint started it, else what went wrong. Never throws. */
export async function preflightLiveSession(
  settings: LivePreflightSettings,
): Promise<LivePreflightProblem | null> {
  let session: LiveSession
  try {
    session = new LiveSession({
      apiKey: settings.apiKey,
      ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
      allowInsecureLoopback: settings.allowInsecureLoopback,
      startTimeoutMs: settings.timeoutMs,
      closeTimeoutMs: settings.timeoutMs,
    })
  } catch (error) {
    // Refused before any socket (an insecure or malformed endpoint): the refusal is the whole story.
    const url = settings.baseURL ?? 'the OpenAI API'
    const message = error instanceof Error ? error.message : String(error)
    return { url, status: message.replace(/^GPT-Live session \w+: /, ''), blame: 'settings' }
  }
  const url = session.url.href
  try {
    await session.start({ model: settings.model })
    return null
  } catch (error) {
    return describeLivePreflightFailure(error, url)
  } finally {
    await session.close()
  }
}
