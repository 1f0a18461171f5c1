// The shape of a phase's configuration, described once with zod. The TOML file, the environment and the
// programmatic overrides are each checked against the same field schemas, so a value is judged by the
// same rule wherever it came from. Every field's message reads after its dotted key
// ("execution.concurrency must be an integer"), which is how the loader words its errors.
import { z } from 'zod'
import { AUDIO_CONDITIONS } from '../scenarios/scenario.ts'
import { FAULT_SETTING_VALUES } from './fault-profiles.ts'

export const PHASES = ['crawl', 'walk', 'run'] as const
export const phaseSchema = z.enum(PHASES)
export type Phase = z.infer<typeof phaseSchema>

const integer = () => z.int({ error: 'must be an integer' })
const number = () => z.number({ error: 'must be a number' })
const boolean = () => z.boolean({ error: 'must be a boolean' })
const string = () => z.string({ error: 'must be a string' })
const nonEmptyString = () => string().min(1, { error: 'must not be empty' })
const positiveInteger = () => integer().positive({ error: 'must be greater than 0' })
const positiveNumber = () => number().positive({ error: 'must be greater than 0' })
const nonNegativeNumber = () => number().nonnegative({ error: 'must be 0 or greater' })
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.map((value) => `"${value}"`).join(', ')}` })

export const EXECUTION_MODES = ['offline', 'live'] as const
/**
 * What `execution.mode` accepts. `replay` resolves to the live code path (mode "live") with `replay.enabled`:
 * replay exercises exactly what a live run does, answered by cassettes (src/cassettes) instead of the service.
 */
export const EXECUTION_MODE_INPUTS = [...EXECUTION_MODES, 'replay'] as const
export const REPLAY_MATCHES = ['strict', 'lenient'] as const
export const REPLAY_CALLER_TOOLS = ['application', 'cassette'] as const
export const ASSISTANT_MODES = ['responses', 'client'] as const
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const
export const VERBOSITIES = ['low', 'medium', 'high'] as const
export const MAX_CONCURRENCY = 8

const concurrency = () =>
  integer()
    .min(1, { error: `must be between 1 and ${MAX_CONCURRENCY}` })
    .max(MAX_CONCURRENCY, { error: `must be between 1 and ${MAX_CONCURRENCY}` })

// Field maps per TOML section. Keys listed in OPTIONAL_KEYS may be absent from every layer; they resolve to null.
const datasetFields = { path: nonEmptyString() }

const executionFields = {
  mode: oneOf(EXECUTION_MODE_INPUTS),
  concurrency: concurrency(),
  max_examples: integer().nonnegative({ error: 'must be 0 (all) or greater' }),
  // How many times each scenario runs (one Vitest test and one results.json row per trial); 1 runs it once.
  trials: integer().min(1, { error: 'must be 1 or greater' }),
  verbose: boolean(),
  results_dir: nonEmptyString(),
  // The GPT-Live models to evaluate, each on the same scenarios (src/config/live-models.ts); unset runs
  // models.live_model alone, with the layout and names of a single-model run.
  models: z
    .array(nonEmptyString(), { error: 'must be a list of model ids' })
    .min(1, { error: 'must name at least one model' }),
  // Scenarios in flight at once per model: the service limits each model's concurrent sessions separately.
  // A model not listed runs execution.concurrency at a time.
  model_concurrency: z.record(nonEmptyString(), concurrency(), {
    error: 'must be a table of model id = scenarios at once',
  }),
  // Cassettes (src/cassettes): record writes one per scenario, architecture and trial of a live run into
  // cassettes_dir (default cassettes/<phase>/ beside the TOML file), which replay reads.
  record: boolean(),
  cassettes_dir: nonEmptyString(),
  // Ours: a real-time row whose own frames went out later than this at p99 (ms) carries a warning on its latency
  // metrics (reporting/extensions/pacing.ts).
  pacing_warning_ms: positiveNumber(),
  // A named, seeded fault profile (config/fault-profiles.ts) for every scenario of the run, or "none" (no faults,
  // even where a scenario's fault_profile tag names one); absent: only tagged scenarios run under faults.
  faults: oneOf(FAULT_SETTING_VALUES),
}

const singleTurnExecutionFields = { ...executionFields, response_timeout_seconds: positiveNumber() }

const audioFields = { chunk_ms: positiveInteger(), sample_rate_hz: positiveInteger(), real_time: boolean() }
// CRAWL synthesizes its caller speech behind a content-addressed cache; refresh_audio re-requests what was cached
// before the run (the reference toolkit's --refresh-audio).
const crawlAudioFields = { ...audioFields, cache_dir: nonEmptyString(), refresh_audio: boolean() }

const assistantFields = { mode: oneOf(ASSISTANT_MODES), endpoint: string() }

const simulationFields = {
  // Ours (the reference's --simulator-model): the GPT-Live model the live caller runs on. Fixed by default, so a
  // model matrix (execution.models) puts every model under test in front of the same caller.
  simulator_model: nonEmptyString(),
  simulator_backend_model: nonEmptyString(),
  simulator_backend_reasoning_effort: oneOf(REASONING_EFFORTS),
  tick_ms: positiveInteger(),
  response_deadline_ms: positiveInteger(),
  max_duration_seconds: positiveNumber(),
  work_grace_seconds: nonNegativeNumber(),
  cleanup_timeout_seconds: positiveNumber(),
  semantic_drain: boolean(),
  completion_model: nonEmptyString(),
  completion_timeout_seconds: positiveNumber(),
  condition: oneOf(AUDIO_CONDITIONS),
  seed: integer(),
  drain_ms: integer().nonnegative({ error: 'must be 0 or greater' }),
  // Ours, beyond the reference's keys: the assistant-first opening (a prompt file sent unchanged as commentary;
  // unset: the caller speaks first), scheduled caller interventions (a sidecar JSON keyed by scenario id, since
  // schema-1.0 scenarios forbid extra keys), and the debugging artifacts (ticks and turns JSONL).
  assistant_first_prompt_file: nonEmptyString(),
  interventions_file: nonEmptyString(),
  debug_artifacts: boolean(),
}

export const JUDGE_BACKENDS = ['responses', 'decisions'] as const

// The semantic judge (live only). enabled and repetitions are the reference's [grading] keys; the rest are ours:
// which judge API answers, the Decisions API's model, the judgment cache, the per-request timeout and how many
// judge requests a worker keeps in flight (one limiter shared by the worker's scenarios).
const gradingFields = {
  enabled: boolean(),
  repetitions: positiveInteger(),
  backend: oneOf(JUDGE_BACKENDS),
  decisions_model: nonEmptyString(),
  cache: boolean(),
  cache_dir: nonEmptyString(),
  timeout_seconds: positiveNumber(),
  max_concurrent_requests: positiveInteger(),
  // Ours (deterministic, every mode): the silence limit of check dead_air_while_pending (src/grading/faults).
  max_dead_air_ms: positiveInteger(),
}

// `live-evals explain` (src/explain): how many times each intervention and the unchanged re-run are repeated,
// the cap on re-runs per explain (offline they are free, live each one is a new call), and the seed the trials'
// draws come from.
const explainFields = { trials: positiveInteger(), max_reruns: positiveInteger(), seed: integer() }

// Replay (execution.mode = "replay"): strict stops a scenario at its first divergence from the cassette; lenient
// answers with the closest recorded frame and lists every divergence. regrade (set by `live-evals grade
// --cassettes`) re-grades the recorded conversations: the judge is answered from the cassette or not at all.
// caller (live runs, WALK and RUN) streams a cassette's recorded caller into the live assistant; caller_tools says
// who answers the assistant's tools then (src/cassettes/caller/).
const replayFields = {
  match: oneOf(REPLAY_MATCHES),
  regrade: boolean(),
  caller: nonEmptyString(),
  caller_tools: oneOf(REPLAY_CALLER_TOOLS),
}

// Not TOML sections: model choices, connection switches and credentials come from the environment or overrides.
const modelFields = {
  live_model: nonEmptyString(),
  live_voice: nonEmptyString(),
  backend_model: nonEmptyString(),
  backend_reasoning_effort: oneOf(REASONING_EFFORTS),
  backend_max_output_tokens: positiveInteger(),
  backend_verbosity: oneOf(VERBOSITIES),
  tts_model: nonEmptyString(),
  judge_model: nonEmptyString(),
  judge_reasoning_effort: oneOf(REASONING_EFFORTS),
}

const connectionFields = {
  live_endpoint: nonEmptyString(),
  live_allow_insecure_loopback: boolean(),
  client_assistant_allow_insecure_loopback: boolean(),
}

const credentialFields = {
  openai_api_key: nonEmptyString(),
  responses_api_key: nonEmptyString(),
  client_assistant_token: nonEmptyString(),
}

/** Keys that have no built-in default: absent everywhere means unknown, which resolves to null. */
export const OPTIONAL_KEYS: ReadonlySet<string> = new Set([
  'execution.results_dir',
  'execution.models',
  'execution.cassettes_dir',
  'execution.faults',
  'audio.cache_dir',
  'connection.live_endpoint',
  'credentials.openai_api_key',
  'credentials.responses_api_key',
  'credentials.client_assistant_token',
  'grading.cache_dir',
  'simulation.assistant_first_prompt_file',
  'simulation.interventions_file',
  'replay.caller',
])

/** Keys holding filesystem paths: resolved against the TOML folder (TOML, defaults) or the cwd (env, overrides). */
export const PATH_KEYS: ReadonlySet<string> = new Set([
  'dataset.path',
  'execution.results_dir',
  'execution.cassettes_dir',
  'audio.cache_dir',
  'grading.cache_dir',
  'simulation.assistant_first_prompt_file',
  'simulation.interventions_file',
  'replay.caller',
])

type FieldMap = Record<string, z.ZodType>

const PHASE_FILE_SECTIONS = {
  crawl: {
    dataset: datasetFields,
    execution: singleTurnExecutionFields,
    audio: crawlAudioFields,
    grading: gradingFields,
    assistant: assistantFields,
    replay: replayFields,
    explain: explainFields,
  },
  walk: {
    dataset: datasetFields,
    execution: singleTurnExecutionFields,
    audio: audioFields,
    grading: gradingFields,
    assistant: assistantFields,
    replay: replayFields,
    explain: explainFields,
  },
  run: {
    dataset: datasetFields,
    execution: executionFields,
    simulation: simulationFields,
    grading: gradingFields,
    assistant: assistantFields,
    replay: replayFields,
    explain: explainFields,
  },
} as const satisfies Record<Phase, Record<string, FieldMap>>

const SHARED_SECTIONS = {
  models: modelFields,
  connection: connectionFields,
  credentials: credentialFields,
} as const satisfies Record<string, FieldMap>

/** Sections a phase's TOML file may contain, with their fields. */
export function fileSections(phase: Phase): Record<string, FieldMap> {
  return PHASE_FILE_SECTIONS[phase]
}

/** Every section a phase's settings hold (TOML sections plus models, connection, credentials). */
export function settingSections(phase: Phase): Record<string, FieldMap> {
  return { ...PHASE_FILE_SECTIONS[phase], ...SHARED_SECTIONS }
}

/** Strict, all-optional schema for one layer (a TOML file or the overrides): unknown keys are errors. */
export function layerSchema(sections: Record<string, FieldMap>) {
  const shape: Record<string, z.ZodType> = {}
  for (const [name, fields] of Object.entries(sections)) {
    shape[name] = z.strictObject(fields, { error: 'must be a table' }).partial().optional()
  }
  return z.strictObject(shape)
}

// The resolved shapes, spelled out so z.infer yields precise types (optional keys become `T | null`).
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable()

const resolvedExecution = z.strictObject({
  ...executionFields,
  // Replay runs the live code path: the resolved mode is never "replay" (see EXECUTION_MODE_INPUTS).
  mode: oneOf(EXECUTION_MODES),
  results_dir: nullable(executionFields.results_dir),
  models: nullable(executionFields.models),
  faults: nullable(executionFields.faults),
})
const resolvedSingleTurnExecution = resolvedExecution.extend({
  response_timeout_seconds: singleTurnExecutionFields.response_timeout_seconds,
})

const resolvedGrading = z.strictObject({ ...gradingFields, cache_dir: nullable(gradingFields.cache_dir) })

export const settingOriginSchema = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('default') }),
  z.strictObject({ source: z.literal('toml'), file: z.string() }),
  z.strictObject({ source: z.literal('env'), variable: z.string() }),
  z.strictObject({ source: z.literal('override') }),
])
export type SettingOrigin = z.infer<typeof settingOriginSchema>

const commonSettings = {
  /** Absolute path of the TOML file that was read. */
  config_file: z.string(),
  dataset: z.strictObject(datasetFields),
  assistant: z.strictObject(assistantFields),
  models: z.strictObject(modelFields),
  connection: z.strictObject({
    ...connectionFields,
    live_endpoint: nullable(connectionFields.live_endpoint),
  }),
  credentials: z.strictObject({
    openai_api_key: nullable(credentialFields.openai_api_key),
    responses_api_key: nullable(credentialFields.responses_api_key),
    client_assistant_token: nullable(credentialFields.client_assistant_token),
  }),
  /** `enabled` when execution.mode was "replay" (the mode itself then resolves to "live"). */
  replay: z.strictObject({ ...replayFields, caller: nullable(replayFields.caller), enabled: boolean() }),
  explain: z.strictObject(explainFields),
  /** Extra field names to redact in logs and artifacts (GPT_LIVE_EVALS_REDACT_FIELDS). */
  redact_fields: z.array(z.string()),
  /** Where each dotted key's value came from, so a run can report its configuration honestly. */
  origins: z.record(z.string(), settingOriginSchema),
}

export const crawlSettingsSchema = z.strictObject({
  phase: z.literal('crawl'),
  ...commonSettings,
  execution: resolvedSingleTurnExecution,
  audio: z.strictObject({ ...crawlAudioFields, cache_dir: nullable(crawlAudioFields.cache_dir) }),
  grading: resolvedGrading,
})

export const walkSettingsSchema = z.strictObject({
  phase: z.literal('walk'),
  ...commonSettings,
  execution: resolvedSingleTurnExecution,
  audio: z.strictObject(audioFields),
  grading: resolvedGrading,
})

export const runSettingsSchema = z.strictObject({
  phase: z.literal('run'),
  ...commonSettings,
  execution: resolvedExecution,
  simulation: z.strictObject({
    ...simulationFields,
    assistant_first_prompt_file: nullable(simulationFields.assistant_first_prompt_file),
    interventions_file: nullable(simulationFields.interventions_file),
  }),
  grading: resolvedGrading,
})

export const phaseSettingsSchema = z.discriminatedUnion('phase', [
  crawlSettingsSchema,
  walkSettingsSchema,
  runSettingsSchema,
])

export type CrawlSettings = z.infer<typeof crawlSettingsSchema>
export type WalkSettings = z.infer<typeof walkSettingsSchema>
export type RunSettings = z.infer<typeof runSettingsSchema>
export type PhaseSettings = z.infer<typeof phaseSettingsSchema>
export type SettingsFor<P extends Phase> = Extract<PhaseSettings, { phase: P }>
export type ModelSettings = PhaseSettings['models']
export type GradingSettings = PhaseSettings['grading']

export const SETTINGS_SCHEMAS = {
  crawl: crawlSettingsSchema,
  walk: walkSettingsSchema,
  run: runSettingsSchema,
} as const
