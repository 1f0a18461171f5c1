// The judge's options as one plain object, so the settings layer can fill it and tests can write it by hand.
// Where each comes from in the settings (the lead wires this):
//   enabled          ← [grading] enabled (RUN's TOML; CRAWL/WALK: true)      repetitions ← [grading] repetitions
//   model            ← models.judge_model (OPENAI_EVAL_JUDGE_MODEL)
//   reasoningEffort  ← models.judge_reasoning_effort (OPENAI_EVAL_JUDGE_REASONING_EFFORT)
//   mode             ← execution.mode ('offline' never calls a judge)
//   backend, decisionsModel, cacheDir ← new settings (no reference equivalent); the cache is off when cacheDir is null.

import type { ReasoningEffort } from 'openai/resources/shared'
import { DEFAULT_DECISIONS_MODEL } from './decisions-judge.ts'
import type { JudgeCallSettings } from './judge-settings.ts'

export type JudgeBackend = 'responses' | 'decisions'

/** What the judge is asked to do, plus the call settings (client, limiter, retries, timeout, abort) it passes on. */
export interface SemanticJudgeOptions extends JudgeCallSettings {
  /** False: no request is sent, applicable dimensions stay not_assessed. */
  enabled: boolean
  /** Offline runs never call a judge, whatever `enabled` says. */
  mode: 'live' | 'offline'
  /** The Responses judge's model. */
  model: string
  reasoningEffort?: ReasoningEffort | undefined
  /** Default `responses` (the reference-compatible judge); `decisions` is opt-in. */
  backend?: JudgeBackend | undefined
  /** Default gpt-6-luna, the only model the SDK documents for the Decisions API. */
  decisionsModel?: string | undefined
  /** Independent judgments per dimension (default 1). */
  repetitions?: number | undefined
  /** Where cached judgments live; null or absent turns the cache off. */
  cacheDir?: string | null | undefined
}

export interface ResolvedJudgeOptions {
  enabled: boolean
  mode: 'live' | 'offline'
  model: string
  reasoningEffort: ReasoningEffort | undefined
  backend: JudgeBackend
  decisionsModel: string
  repetitions: number
  cacheDir: string | null
  call: JudgeCallSettings
}

/** Fills defaults and refuses values that could only produce a wrong judgment, naming the option. */
export function resolveJudgeOptions(options: SemanticJudgeOptions): ResolvedJudgeOptions {
  const repetitions = options.repetitions ?? 1
  if (!Number.isInteger(repetitions) || repetitions < 1) {
    throw new RangeError(`Judge option repetitions must be an integer of at least 1 (got ${repetitions}).`)
  }
  const backend = options.backend ?? 'responses'
  if (backend !== 'responses' && backend !== 'decisions') {
    throw new RangeError(`Judge option backend must be "responses" or "decisions" (got ${String(backend)}).`)
  }
  if (options.model.trim() === '') throw new RangeError('Judge option model must not be empty.')
  return {
    enabled: options.enabled,
    mode: options.mode,
    model: options.model,
    reasoningEffort: options.reasoningEffort,
    backend,
    decisionsModel: options.decisionsModel ?? DEFAULT_DECISIONS_MODEL,
    repetitions,
    cacheDir: options.cacheDir ?? null,
    call: {
      client: options.client,
      limiter: options.limiter,
      retry: options.retry,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      now: options.now,
    },
  }
}
