// The openai client the reference backend talks through. It prefers a key dedicated to the Responses API
// (so a deployment can keep the Live and backend keys apart) and falls back to the general one.
import OpenAI from 'openai'
import { cassetteFetch } from '../../../cassettes/scope.ts'

export const BACKEND_TIMEOUT_MS = 60_000
export const BACKEND_MAX_RETRIES = 2

export interface BackendClientSettings {
  /** Where to read the keys; default process.env. */
  env?: Readonly<Record<string, string | undefined>>
  /** Another endpoint (tests point this at the loopback test server). */
  baseURL?: string
}

/** The API key for the backend: OPENAI_RESPONSES_API_KEY, else OPENAI_API_KEY; throws when neither is set. */
export function backendApiKey(env: Readonly<Record<string, string | undefined>> = process.env): string {
  for (const variable of ['OPENAI_RESPONSES_API_KEY', 'OPENAI_API_KEY']) {
    const value = env[variable]?.trim()
    if (value) return value
  }
  throw new Error(
    'The OpenAI client backend needs an API key: set OPENAI_RESPONSES_API_KEY or OPENAI_API_KEY, or run offline (LIVE_EVALS_MODE=offline) with the offline backend.',
  )
}

export function backendOpenAiClient(settings: BackendClientSettings = {}): OpenAI {
  return new OpenAI({
    apiKey: backendApiKey(settings.env),
    timeout: BACKEND_TIMEOUT_MS,
    maxRetries: BACKEND_MAX_RETRIES,
    // Recorded or replayed inside a cassette scope (src/cassettes); the global fetch otherwise.
    fetch: cassetteFetch,
    ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
  })
}
