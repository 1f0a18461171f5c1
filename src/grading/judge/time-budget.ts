// The judge's share of a scenario test's timeout. Apart from options-from-settings.ts (which builds the judge's
// openai client), so planning a run computes timeouts without loading the SDK.
import type { PhaseSettings } from '../../config/index.ts'
import { DEFAULT_RETRY_POLICY } from '../../models/retry-policy.ts'
import { SEMANTIC_DIMENSIONS } from '../semantic-applicability.ts'

/**
 * The longest the judge may take for one scenario under these settings (0 when it does not run), for a test's
 * timeout: every request of the worst case (all five dimensions, every repetition) queued behind the worker's
 * limiter, each using all its attempts to the timeout with the retry backoff between them.
 */
export function judgeTimeBudgetMs(settings: Pick<PhaseSettings, 'execution' | 'grading'>): number {
  const { grading } = settings
  if (settings.execution.mode !== 'live' || !grading.enabled) return 0
  const { maxAttempts, baseDelayMs, maxDelayMs } = DEFAULT_RETRY_POLICY
  let backoff = 0
  for (let attempt = 1; attempt < maxAttempts; attempt++) {
    backoff += Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1))
  }
  const perRequest = maxAttempts * grading.timeout_seconds * 1000 + backoff
  const requests = SEMANTIC_DIMENSIONS.length * grading.repetitions
  return Math.ceil(requests / grading.max_concurrent_requests) * perRequest
}
