// What a judge backend needs besides the evidence: the model and its effort, the shared call settings (client,
// limiter, retries, timeout, abort), the prompt variant (single-turn or a whole simulated call) and the cache.

import type OpenAI from 'openai'
import type { ReasoningEffort } from 'openai/resources/shared'
import type { RateLimiter } from '../../models/rate-limiter.ts'
import type { RetryPolicy } from '../../models/retry-policy.ts'
import type { Interaction } from '../../scenarios/scenario.ts'
import type { JudgeCache } from './cache.ts'

export interface JudgeCallSettings {
  client: OpenAI
  /** One limiter shared by every scenario of a run. */
  limiter?: RateLimiter | undefined
  retry?: Partial<RetryPolicy> | undefined
  /** Per request, in ms. */
  timeoutMs?: number | undefined
  signal?: AbortSignal | undefined
  now?: (() => number) | undefined
}

export interface JudgeBackendSettings {
  model: string
  /** Responses only; the Decisions API takes none. */
  reasoningEffort?: ReasoningEffort | undefined
  interaction: Interaction
  cache: JudgeCache | null
  call: JudgeCallSettings
}
