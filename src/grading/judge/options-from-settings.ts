// The judge's options from a phase's resolved settings (the [grading] section, the judge model and effort, the
// execution mode and the API key). Null when the judge does not run: offline, grading disabled, or live without a
// key (that run fails at its connection anyway, with the message that says how to run offline).
//
// One openai client and one rate limiter per worker process, whatever the number of scenarios, files or run
// directories it serves: the limiter exists so concurrent scenarios share one budget of requests in flight.
import { dirname, join } from 'node:path'
import OpenAI from 'openai'
import { cassetteFetch } from '../../cassettes/scope.ts'
import type { PhaseSettings } from '../../config/index.ts'
import { createRateLimiter, type RateLimiter } from '../../models/rate-limiter.ts'
import type { SemanticJudgeOptions } from './options.ts'

/** The judge cache's folder name inside the results folder when `grading.cache_dir` is not set. */
export const JUDGE_CACHE_FOLDER = '.judge_cache'

const clients = new Map<string, OpenAI>()
const limiters = new Map<number, RateLimiter>()

function sharedClient(apiKey: string): OpenAI {
  let client = clients.get(apiKey)
  if (client === undefined) {
    // Retries are the structured-call module's (bounded, backoff, limiter-aware), not the SDK's on top of them.
    client = new OpenAI({ apiKey, maxRetries: 0, fetch: cassetteFetch })
    clients.set(apiKey, client)
  }
  return client
}

function sharedLimiter(maxConcurrent: number): RateLimiter {
  let limiter = limiters.get(maxConcurrent)
  if (limiter === undefined) {
    limiter = createRateLimiter({ maxConcurrent })
    limiters.set(maxConcurrent, limiter)
  }
  return limiter
}

/** Where judgments are cached for runs in `runDirectory`'s results folder; null when the cache is off. */
export function judgeCacheDirectory(grading: PhaseSettings['grading'], runDirectory: string): string | null {
  if (!grading.cache) return null
  return grading.cache_dir ?? join(dirname(runDirectory), JUDGE_CACHE_FOLDER)
}

export interface JudgeOptionsContext {
  /** The run folder the judged rows belong to (the default cache lives beside it). */
  runDirectory: string
  /** Another client (tests point one at the loopback fake server); default: one per worker from the API key. */
  client?: OpenAI
}

export function judgeOptionsFromSettings(
  settings: Pick<PhaseSettings, 'execution' | 'grading' | 'models' | 'credentials'>,
  context: JudgeOptionsContext,
): SemanticJudgeOptions | null {
  const { grading } = settings
  if (settings.execution.mode !== 'live' || !grading.enabled) return null
  const apiKey = settings.credentials.openai_api_key
  if (context.client === undefined && apiKey === null) return null
  return {
    enabled: true,
    mode: 'live',
    client: context.client ?? sharedClient(apiKey as string),
    model: settings.models.judge_model,
    reasoningEffort: settings.models.judge_reasoning_effort,
    backend: grading.backend,
    decisionsModel: grading.decisions_model,
    repetitions: grading.repetitions,
    cacheDir: judgeCacheDirectory(grading, context.runDirectory),
    limiter: sharedLimiter(grading.max_concurrent_requests),
    timeoutMs: grading.timeout_seconds * 1000,
  }
}
