// Scenarios in flight per GPT-Live model. Vitest's maxConcurrency bounds a file's tests as a whole (the plugin sets
// it to the sum of the models' limits); the service counts each model's concurrent sessions apart, so each model
// also gets its own limiter of execution.model_concurrency (else execution.concurrency) sessions.
import { modelConcurrency } from '../config/live-models.ts'
import type { PhaseSettings } from '../config/schema.ts'
import { createRateLimiter, type RateLimiter } from '../models/rate-limiter.ts'

/** One limiter per model, made on first use; the same model always gets the same limiter. */
export function modelLimiters(settings: PhaseSettings): (model: string) => RateLimiter {
  const limiters = new Map<string, RateLimiter>()
  return (model) => {
    let limiter = limiters.get(model)
    if (limiter === undefined) {
      limiter = createRateLimiter({ maxConcurrent: modelConcurrency(settings, model) })
      limiters.set(model, limiter)
    }
    return limiter
  }
}
