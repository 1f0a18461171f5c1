// Evaluator-side model calls: structured Responses and Decisions requests, shared rate limiting, usage events.
export type { ModelCallSettings } from './call-runner.ts'
export { callDecisions, type DecisionsCallRequest, type DecisionsCallResult } from './decisions-call.ts'
export { ModelCallError, type ModelCallFailureKind } from './errors.ts'
export { createRateLimiter, type RateLimiter, type RateLimiterOptions } from './rate-limiter.ts'
export { DEFAULT_RETRY_POLICY, type RetryPolicy, type Sleep } from './retry-policy.ts'
export { callStructured, type StructuredCallRequest, type StructuredCallResult } from './structured-call.ts'
export {
  cachedUsageEvent,
  type EvaluatorUsageSource,
  type ModelUsageEvent,
  usageEvent,
} from './usage.ts'
