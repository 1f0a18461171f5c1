// A live run whose key is refused or whose quota runs out mid-run cannot succeed for any later scenario: the first
// scenario that meets such an error leaves a small marker in the run's folders, and every scenario that starts
// afterwards (in any worker) fails at once as an infrastructure error at its connection stage, naming the cause,
// instead of waiting out its own deadlines against the same refusal. The row and the Vitest test fail together,
// through the fixture that prepares the caller's audio.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { APIError } from 'openai'
import { causesOf } from '../errors/causes.ts'
import { LiveSessionError } from '../live/index.ts'
import { StageError } from '../phases/engine/stage.ts'

/** The marker's file name inside each run folder of the run. */
export const RUN_STOP_FILE = 'stopped.txt'

/** Account problems no retry or later scenario can overcome (the service's own codes). */
const ACCOUNT_CODES = new Set([
  'invalid_api_key',
  'insufficient_quota',
  'account_deactivated',
  'billing_hard_limit_reached',
])

/** Why an error stops the whole run (a refused key, an exhausted quota), or null when it concerns one scenario. */
export function runStoppingReason(error: unknown): string | null {
  for (const current of causesOf(error)) {
    if (current instanceof APIError) {
      const code = typeof current.code === 'string' ? current.code : null
      if (current.status === 401 || current.status === 403 || (code !== null && ACCOUNT_CODES.has(code))) {
        return `the OpenAI API answered HTTP ${current.status}${code === null ? '' : ` ${code}`}`
      }
    }
    if (current instanceof LiveSessionError) {
      const code = current.serverError?.code
      if (typeof code === 'string' && ACCOUNT_CODES.has(code)) return `GPT-Live answered server error ${code}`
    }
    const refused = /Unexpected server response: (401|403)\b/.exec(current.message)
    if (refused !== null) return `GPT-Live refused the connection with HTTP ${refused[1]}`
  }
  return null
}

/** Records that the run must stop (first writer wins; a failure to write only loses the shortcut). */
export async function noteRunStopping(
  error: unknown,
  plan: { runs: readonly { directory: string }[] },
): Promise<void> {
  const reason = runStoppingReason(error)
  if (reason === null) return
  await Promise.all(
    plan.runs.map(({ directory }) =>
      writeFile(join(directory, RUN_STOP_FILE), `${reason}\n`, { flag: 'wx', mode: 0o600 }).catch(() => {}),
    ),
  )
}

/** Throws the infrastructure error of a scenario that starts after the run was stopped. */
export async function throwIfRunStopped(runDirectory: string, scenarioId: string): Promise<void> {
  let reason: string
  try {
    reason = (await readFile(join(runDirectory, RUN_STOP_FILE), 'utf8')).trim()
  } catch {
    return
  }
  throw new StageError(
    'connection',
    `Scenario ${scenarioId} was not run: an earlier scenario of this live run was refused (${reason}), so the ` +
      'remaining scenarios stop here. Check OPENAI_API_KEY and the account’s quota, then run again',
  )
}
