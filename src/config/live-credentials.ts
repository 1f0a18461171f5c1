// A live run talks to OpenAI and needs a key; an offline run must not need one. Checking before anything
// starts turns a missing key into one clear message instead of a failure in every scenario, and the
// message says how to run offline, because a live run never silently becomes offline.
import { HarnessConfigError } from './errors.ts'
import type { PhaseSettings } from './schema.ts'

/** Throws when the settings ask for a live run without OPENAI_API_KEY. */
export function assertLiveCredentials(settings: PhaseSettings): void {
  if (settings.execution.mode !== 'live') return
  if (settings.credentials.openai_api_key !== null) return
  throw new HarnessConfigError([
    'OPENAI_API_KEY is required for a live run; set it in the shell or the .env file, ' +
      'or run offline with LIVE_EVALS_MODE=offline (execution.mode = "offline")',
  ])
}
