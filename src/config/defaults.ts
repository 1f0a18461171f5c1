// Built-in defaults per phase: the lowest layer of the precedence (override > env > TOML > defaults).
// Values follow the reference toolkit's config.toml files and .env.example; keys without a default
// (results_dir, cache_dir, endpoints, credentials) are absent here and resolve to null.
import type { Phase } from './schema.ts'

export type SectionValues = Record<string, Record<string, unknown>>

// Two scenarios at a time: the reference toolkit's default is one, but a first run without a TOML should not take
// twice as long as it needs to (the bundled TOMLs and the client service's connection limit allow more).
const DEFAULT_CONCURRENCY = 2
// A real-time row whose frames went out more than this late at p99 warns on its latency metrics: well below a
// human gap (~200 ms), well above what timers alone give on an idle machine (~1-2 ms).
const PACING_WARNING_MS = 10

// Per-model limits (the service counts each model's concurrent sessions apart), each capped by
// execution.concurrency. gpt-live-1.1 has its own limit at the service, which publishes no number: its default is
// the run's default, written here so a team with a lower 1.1 quota changes one value.
export const DEFAULT_MODEL_CONCURRENCY: Record<string, number> = { 'gpt-live-1.1': DEFAULT_CONCURRENCY }

const SINGLE_TURN_EXECUTION = {
  mode: 'offline',
  concurrency: DEFAULT_CONCURRENCY,
  max_examples: 0,
  trials: 1,
  verbose: false,
  record: false,
  pacing_warning_ms: PACING_WARNING_MS,
  response_timeout_seconds: 30.0,
  model_concurrency: DEFAULT_MODEL_CONCURRENCY,
}

// Offline runs on the virtual clock unless a user asks for real-time pacing (live always paces in real time, so
// this only ever changes an offline run); the reference toolkit defaults to real time, eight times slower.
const AUDIO = { chunk_ms: 20, sample_rate_hz: 24_000, real_time: false }
// Cached speech is reused unless a run asks for it to be synthesized again.
const CRAWL_AUDIO = { ...AUDIO, refresh_audio: false }

const ASSISTANT = { mode: 'responses', endpoint: '' }

// Replay stops at the first divergence unless a run asks to see them all.
const REPLAY = { match: 'strict', regrade: false, caller_tools: 'application' }

// explain: five trials per arm, since 5/5 against 0/5 gives a shift whose 95% interval stays well above 0 (two
// trials barely do, one never does); a cap that keeps a live explain of a few scenarios to a few dollars; a seed.
const EXPLAIN = { trials: 5, max_reruns: 100, seed: 1 }

// The judge runs in live mode unless turned off. Its cache (<results folder>/.judge_cache when cache_dir is
// unset) is on: re-judging the same evidence with the same model and prompt does not pay twice.
export const DEFAULT_GRADING = {
  enabled: true,
  repetitions: 1,
  backend: 'responses',
  decisions_model: 'gpt-6-luna',
  cache: true,
  timeout_seconds: 60.0,
  max_concurrent_requests: 4,
  // The longest silence the caller may sit through while the assistant's work is pending (check
  // dead_air_while_pending, issue 22): a second, the point where callers start to ask whether anyone is there.
  max_dead_air_ms: 1_000,
}

export const DEFAULT_MODELS = {
  live_model: 'gpt-live-1',
  live_voice: 'marin',
  backend_model: 'gpt-5.6-terra',
  backend_reasoning_effort: 'none',
  backend_max_output_tokens: 1000,
  backend_verbosity: 'low',
  tts_model: 'gpt-4o-mini-tts',
  judge_model: 'gpt-5.6-terra',
  judge_reasoning_effort: 'medium',
}

const CONNECTION = { live_allow_insecure_loopback: false, client_assistant_allow_insecure_loopback: false }

const DATASET = { path: 'data/scenarios.json' }

const PHASE_DEFAULTS: Record<Phase, SectionValues> = {
  crawl: {
    dataset: DATASET,
    execution: SINGLE_TURN_EXECUTION,
    audio: CRAWL_AUDIO,
    grading: DEFAULT_GRADING,
    assistant: ASSISTANT,
    replay: REPLAY,
    explain: EXPLAIN,
  },
  walk: {
    dataset: DATASET,
    execution: SINGLE_TURN_EXECUTION,
    audio: AUDIO,
    grading: DEFAULT_GRADING,
    assistant: ASSISTANT,
    replay: REPLAY,
    explain: EXPLAIN,
  },
  run: {
    dataset: DATASET,
    execution: {
      mode: 'offline',
      concurrency: DEFAULT_CONCURRENCY,
      max_examples: 0,
      trials: 1,
      verbose: false,
      model_concurrency: DEFAULT_MODEL_CONCURRENCY,
      record: false,
      pacing_warning_ms: PACING_WARNING_MS,
    },
    simulation: {
      simulator_model: 'gpt-live-1',
      simulator_backend_model: 'gpt-5.6-luna',
      simulator_backend_reasoning_effort: 'low',
      tick_ms: 200,
      response_deadline_ms: 5000,
      max_duration_seconds: 90.0,
      work_grace_seconds: 5.0,
      cleanup_timeout_seconds: 10.0,
      semantic_drain: true,
      completion_model: 'gpt-5.6-terra',
      completion_timeout_seconds: 8.0,
      condition: 'clean',
      seed: 7,
      drain_ms: 1500,
      debug_artifacts: false,
    },
    grading: DEFAULT_GRADING,
    assistant: ASSISTANT,
    replay: REPLAY,
    explain: EXPLAIN,
  },
}

/** A fresh deep copy of a phase's defaults, including models, connection and (empty) credentials. */
export function phaseDefaults(phase: Phase): SectionValues {
  const sections: SectionValues = {
    ...PHASE_DEFAULTS[phase],
    models: DEFAULT_MODELS,
    connection: CONNECTION,
    credentials: {},
  }
  return structuredClone(sections)
}
