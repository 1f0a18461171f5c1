// The timing rules of a live call and where they come from: §6's numbers, read from the RUN settings
// (`simulation.*`), so the RUN phase module hands the driver one value instead of a dozen.
import type OpenAI from 'openai'
import type { RunSettings } from '../../../config/schema.ts'
import type { RateLimiter } from '../../../models/index.ts'
import { DEFAULT_DRAIN } from '../drain.ts'
import { DEFAULT_OBSERVER_RULES, type ObserverRules } from './completion-observer.ts'
import type { ObserverCallSettings } from './observer-call.ts'

export interface LiveCallRules {
  /** Minimum time from a completion signal to the end of the call (`drain_ms`). */
  drainMs: number
  /** Quiet on both sides before the call ends (§6 `final_audio_quiet_ms`). */
  finalQuietMs: number
  /** From the relay start (caller first) or the assistant's first speech (assistant first). */
  maxDurationMs: number
  /** Pending work on both sides must settle within this after the loop. */
  workGraceMs: number
  /** Both sessions must be closed within this. */
  cleanupTimeoutMs: number
  /** The opening speaker must be heard within this (§6: 20 s). */
  openingDeadlineMs: number
  observer: ObserverRules
}

export const OPENING_DEADLINE_MS = 20_000

export const DEFAULT_LIVE_RULES: LiveCallRules = {
  drainMs: DEFAULT_DRAIN.drainMs,
  finalQuietMs: DEFAULT_DRAIN.finalQuietMs,
  maxDurationMs: 90_000,
  workGraceMs: 5_000,
  cleanupTimeoutMs: 10_000,
  openingDeadlineMs: OPENING_DEADLINE_MS,
  observer: DEFAULT_OBSERVER_RULES,
}

export function liveCallRulesFrom(simulation: RunSettings['simulation']): LiveCallRules {
  return {
    ...DEFAULT_LIVE_RULES,
    drainMs: simulation.drain_ms,
    maxDurationMs: simulation.max_duration_seconds * 1000,
    workGraceMs: simulation.work_grace_seconds * 1000,
    cleanupTimeoutMs: simulation.cleanup_timeout_seconds * 1000,
  }
}

/**
 * The completion observer's model call from the settings: completion_model within completion_timeout_seconds;
 * null when semantic_drain is off (the call then ends by the fallback policy alone).
 */
export function observerCallFrom(
  simulation: RunSettings['simulation'],
  client: OpenAI,
  limiter?: RateLimiter,
): ObserverCallSettings | null {
  if (!simulation.semantic_drain) return null
  return {
    client,
    model: simulation.completion_model,
    timeoutMs: simulation.completion_timeout_seconds * 1000,
    ...(limiter === undefined ? {} : { limiter }),
  }
}
