// Settings that environment variables may set. Vitest owns the command line, so the environment is how a
// person changes a run's settings; names follow the reference toolkit's .env.example where it has one,
// and LIVE_EVALS_* for what is ours. Values arrive as text and are converted here; range and enum rules
// are checked afterwards by the same zod schema as the TOML file.
import { HarnessConfigError } from './errors.ts'
import type { Phase } from './schema.ts'

// `list` is comma-separated text (`a,b`); `counts` is comma-separated `name=integer` pairs (`a=2,b=4`).
type ValueKind = 'string' | 'integer' | 'number' | 'boolean' | 'list' | 'counts'

export interface EnvironmentSetting {
  variable: string
  /** Dotted settings key, e.g. "execution.concurrency". */
  key: string
  kind: ValueKind
  /** Phases where the key exists; absent means every phase. */
  phases?: readonly Phase[]
}

export const ENVIRONMENT_SETTINGS: readonly EnvironmentSetting[] = [
  { variable: 'LIVE_EVALS_MODE', key: 'execution.mode', kind: 'string' },
  { variable: 'LIVE_EVALS_DATASET', key: 'dataset.path', kind: 'string' },
  { variable: 'LIVE_EVALS_RESULTS_DIR', key: 'execution.results_dir', kind: 'string' },
  { variable: 'LIVE_EVALS_CONCURRENCY', key: 'execution.concurrency', kind: 'integer' },
  { variable: 'LIVE_EVALS_MAX_EXAMPLES', key: 'execution.max_examples', kind: 'integer' },
  { variable: 'LIVE_EVALS_VERBOSE', key: 'execution.verbose', kind: 'boolean' },
  { variable: 'LIVE_EVALS_TRIALS', key: 'execution.trials', kind: 'integer' },
  { variable: 'LIVE_EVALS_MODELS', key: 'execution.models', kind: 'list' },
  { variable: 'LIVE_EVALS_MODEL_CONCURRENCY', key: 'execution.model_concurrency', kind: 'counts' },
  { variable: 'LIVE_EVALS_RECORD', key: 'execution.record', kind: 'boolean' },
  { variable: 'LIVE_EVALS_CASSETTES', key: 'execution.cassettes_dir', kind: 'string' },
  { variable: 'LIVE_EVALS_REPLAY_MATCH', key: 'replay.match', kind: 'string' },
  { variable: 'LIVE_EVALS_REPLAY_REGRADE', key: 'replay.regrade', kind: 'boolean' },
  { variable: 'LIVE_EVALS_REPLAY_CALLER', key: 'replay.caller', kind: 'string' },
  { variable: 'LIVE_EVALS_REPLAY_CALLER_TOOLS', key: 'replay.caller_tools', kind: 'string' },
  { variable: 'LIVE_EVALS_EXPLAIN_TRIALS', key: 'explain.trials', kind: 'integer' },
  { variable: 'LIVE_EVALS_EXPLAIN_MAX_RERUNS', key: 'explain.max_reruns', kind: 'integer' },
  { variable: 'LIVE_EVALS_EXPLAIN_SEED', key: 'explain.seed', kind: 'integer' },
  { variable: 'LIVE_EVALS_FAULTS', key: 'execution.faults', kind: 'string' },
  // CRAWL only: WALK replays recordings and RUN has no synthesized caller, so neither has a speech cache.
  { variable: 'LIVE_EVALS_REFRESH_AUDIO', key: 'audio.refresh_audio', kind: 'boolean', phases: ['crawl'] },
  { variable: 'OPENAI_ASSISTANT_MODE', key: 'assistant.mode', kind: 'string' },
  // [assistant] endpoint is the client-delegation application's address (results report it as
  // assistant_endpoint); the GPT-Live service address is a separate setting.
  { variable: 'OPENAI_CLIENT_ASSISTANT_ENDPOINT', key: 'assistant.endpoint', kind: 'string' },
  { variable: 'OPENAI_LIVE_ENDPOINT', key: 'connection.live_endpoint', kind: 'string' },
  {
    variable: 'OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK',
    key: 'connection.live_allow_insecure_loopback',
    kind: 'boolean',
  },
  {
    variable: 'OPENAI_CLIENT_ASSISTANT_ALLOW_INSECURE_LOOPBACK',
    key: 'connection.client_assistant_allow_insecure_loopback',
    kind: 'boolean',
  },
  { variable: 'OPENAI_LIVE_MODEL', key: 'models.live_model', kind: 'string' },
  { variable: 'OPENAI_LIVE_VOICE', key: 'models.live_voice', kind: 'string' },
  { variable: 'OPENAI_LIVE_BACKEND_MODEL', key: 'models.backend_model', kind: 'string' },
  {
    variable: 'OPENAI_LIVE_BACKEND_REASONING_EFFORT',
    key: 'models.backend_reasoning_effort',
    kind: 'string',
  },
  {
    variable: 'OPENAI_LIVE_BACKEND_MAX_OUTPUT_TOKENS',
    key: 'models.backend_max_output_tokens',
    kind: 'integer',
  },
  { variable: 'OPENAI_LIVE_BACKEND_VERBOSITY', key: 'models.backend_verbosity', kind: 'string' },
  { variable: 'OPENAI_TTS_MODEL', key: 'models.tts_model', kind: 'string' },
  { variable: 'OPENAI_EVAL_JUDGE_MODEL', key: 'models.judge_model', kind: 'string' },
  { variable: 'OPENAI_EVAL_JUDGE_REASONING_EFFORT', key: 'models.judge_reasoning_effort', kind: 'string' },
  // The semantic judge ([grading]); the reference's run-eval has --[no-]judge and --judge-repetitions for these.
  { variable: 'LIVE_EVALS_JUDGE', key: 'grading.enabled', kind: 'boolean' },
  { variable: 'LIVE_EVALS_JUDGE_REPETITIONS', key: 'grading.repetitions', kind: 'integer' },
  { variable: 'LIVE_EVALS_JUDGE_BACKEND', key: 'grading.backend', kind: 'string' },
  { variable: 'OPENAI_EVAL_DECISIONS_MODEL', key: 'grading.decisions_model', kind: 'string' },
  { variable: 'LIVE_EVALS_JUDGE_CACHE', key: 'grading.cache', kind: 'boolean' },
  { variable: 'LIVE_EVALS_JUDGE_CACHE_DIR', key: 'grading.cache_dir', kind: 'string' },
  { variable: 'LIVE_EVALS_JUDGE_TIMEOUT_SECONDS', key: 'grading.timeout_seconds', kind: 'number' },
  { variable: 'LIVE_EVALS_MAX_DEAD_AIR_MS', key: 'grading.max_dead_air_ms', kind: 'integer' },
  {
    variable: 'LIVE_EVALS_JUDGE_MAX_CONCURRENT_REQUESTS',
    key: 'grading.max_concurrent_requests',
    kind: 'integer',
  },
  {
    variable: 'OPENAI_COMPLETION_MODEL',
    key: 'simulation.completion_model',
    kind: 'string',
    phases: ['run'],
  },
  {
    variable: 'LIVE_EVALS_SIMULATOR_MODEL',
    key: 'simulation.simulator_model',
    kind: 'string',
    phases: ['run'],
  },
  {
    variable: 'LIVE_EVALS_ASSISTANT_FIRST_PROMPT_FILE',
    key: 'simulation.assistant_first_prompt_file',
    kind: 'string',
    phases: ['run'],
  },
  {
    variable: 'LIVE_EVALS_INTERVENTIONS',
    key: 'simulation.interventions_file',
    kind: 'string',
    phases: ['run'],
  },
  { variable: 'LIVE_EVALS_RUN_DEBUG', key: 'simulation.debug_artifacts', kind: 'boolean', phases: ['run'] },
  { variable: 'LIVE_EVALS_CONDITION', key: 'simulation.condition', kind: 'string', phases: ['run'] },
  { variable: 'OPENAI_API_KEY', key: 'credentials.openai_api_key', kind: 'string' },
  { variable: 'OPENAI_RESPONSES_API_KEY', key: 'credentials.responses_api_key', kind: 'string' },
  { variable: 'OPENAI_CLIENT_ASSISTANT_TOKEN', key: 'credentials.client_assistant_token', kind: 'string' },
]

/** Names another TOML file to read instead of the phase's module-owned one (relative to the cwd). */
export const CONFIG_FILE_VARIABLE = 'LIVE_EVALS_CONFIG'
/** Comma-separated extra field names to redact, as in the reference toolkit. */
export const REDACT_FIELDS_VARIABLE = 'GPT_LIVE_EVALS_REDACT_FIELDS'
/** Our own prefix's name for the same list (issue 20 names it so); both are read, and their names joined. */
export const REDACT_FIELDS_ALIAS = 'LIVE_EVALS_REDACT_FIELDS'

export type Environment = Record<string, string | undefined>

export interface EnvironmentValue {
  setting: EnvironmentSetting
  value: string | number | boolean | string[] | Record<string, number>
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on'])
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off'])

/** The text of a variable, or null when it is unset or blank (an empty `FOO=` means "not set"). */
export function environmentText(env: Environment, variable: string): string | null {
  const raw = env[variable]
  if (raw === undefined) return null
  const text = raw.trim()
  return text === '' ? null : text
}

/** `a, b,,c` → `["a","b","c"]`: blanks between commas are dropped. */
function listOf(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
}

function countsOf(setting: EnvironmentSetting, text: string): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const pair of listOf(text)) {
    const match = /^([^=\s]+)\s*=\s*([+-]?\d+)$/.exec(pair)
    if (match === null) {
      throw new Error(
        `Environment variable ${setting.variable} must be comma-separated name=integer pairs (got "${pair}")`,
      )
    }
    counts[match[1] as string] = Number(match[2])
  }
  return counts
}

function convert(setting: EnvironmentSetting, text: string): EnvironmentValue['value'] {
  const secret = setting.key.startsWith('credentials.')
  const shown = secret ? '' : ` (got "${text}")`
  switch (setting.kind) {
    case 'string':
      return text
    case 'list':
      return listOf(text)
    case 'counts':
      return countsOf(setting, text)
    case 'integer':
      if (!/^[+-]?\d+$/.test(text))
        throw new Error(`Environment variable ${setting.variable} must be an integer${shown}`)
      return Number(text)
    case 'number': {
      const value = Number(text)
      if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) || !Number.isFinite(value))
        throw new Error(`Environment variable ${setting.variable} must be a number${shown}`)
      return value
    }
    case 'boolean': {
      const word = text.toLowerCase()
      if (TRUE_WORDS.has(word)) return true
      if (FALSE_WORDS.has(word)) return false
      throw new Error(
        `Environment variable ${setting.variable} must be true/false, yes/no, on/off or 1/0${shown}`,
      )
    }
  }
}

/** The settings the environment sets for a phase, converted to their kinds. Throws naming the variable. */
export function environmentValues(phase: Phase, env: Environment): EnvironmentValue[] {
  const values: EnvironmentValue[] = []
  const problems: string[] = []
  for (const setting of ENVIRONMENT_SETTINGS) {
    if (setting.phases && !setting.phases.includes(phase)) continue
    const text = environmentText(env, setting.variable)
    if (text === null) continue
    try {
      values.push({ setting, value: convert(setting, text) })
    } catch (error) {
      problems.push((error as Error).message)
    }
  }
  if (problems.length > 0) throw new HarnessConfigError(problems)
  return values
}

/**
 * Extra names to redact, from GPT_LIVE_EVALS_REDACT_FIELDS (the reference toolkit's name) and
 * LIVE_EVALS_REDACT_FIELDS ("a, b,c" → ["a","b","c"]), each name once.
 */
export function redactFieldNames(env: Environment): string[] {
  const names = [REDACT_FIELDS_VARIABLE, REDACT_FIELDS_ALIAS].flatMap((variable) =>
    (environmentText(env, variable) ?? '').split(',').map((name) => name.trim()),
  )
  return [...new Set(names.filter((name) => name !== ''))]
}
