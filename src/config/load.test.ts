import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HarnessConfigError } from './errors.ts'
import { loadPhaseConfig } from './load.ts'

let root: string
let cwd: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-config-'))
  cwd = join(root, 'cwd')
  mkdirSync(join(root, 'specs', 'crawl'), { recursive: true })
  mkdirSync(cwd)
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function writeToml(text: string, name = 'specs/crawl/config.toml'): string {
  const path = join(root, name)
  writeFileSync(path, text)
  return path
}

function problemOf(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessConfigError)
    return (error as Error).message
  }
  throw new Error('expected a configuration error')
}

describe('built-in defaults', () => {
  it('gives CRAWL exactly the reference keys plus execution.mode, with toolkit values except an offline-first virtual clock at concurrency 2', () => {
    const path = writeToml('')
    const settings = loadPhaseConfig('crawl', path, { env: {}, cwd })
    expect(settings.phase).toBe('crawl')
    expect(settings.config_file).toBe(path)
    expect(settings.dataset).toEqual({ path: join(root, 'specs/crawl/data/scenarios.json') })
    expect(settings.execution).toEqual({
      mode: 'offline',
      concurrency: 2,
      max_examples: 0,
      trials: 1,
      verbose: false,
      record: false,
      cassettes_dir: join(root, 'specs/crawl/cassettes/crawl'),
      pacing_warning_ms: 10,
      response_timeout_seconds: 30,
      results_dir: null,
      models: null,
      model_concurrency: { 'gpt-live-1.1': 2 },
      faults: null,
    })
    expect(settings.audio).toEqual({
      chunk_ms: 20,
      sample_rate_hz: 24000,
      real_time: false,
      cache_dir: null,
      refresh_audio: false,
    })
    expect(settings.assistant).toEqual({ mode: 'responses', endpoint: '' })
    expect(settings.models).toEqual({
      live_model: 'gpt-live-1',
      live_voice: 'marin',
      backend_model: 'gpt-5.6-terra',
      backend_reasoning_effort: 'none',
      backend_max_output_tokens: 1000,
      backend_verbosity: 'low',
      tts_model: 'gpt-4o-mini-tts',
      judge_model: 'gpt-5.6-terra',
      judge_reasoning_effort: 'medium',
    })
    expect(settings.credentials).toEqual({
      openai_api_key: null,
      responses_api_key: null,
      client_assistant_token: null,
    })
    expect(settings.connection).toEqual({
      live_endpoint: null,
      live_allow_insecure_loopback: false,
      client_assistant_allow_insecure_loopback: false,
    })
    expect(settings.origins['execution.concurrency']).toEqual({ source: 'default' })
    expect(settings.origins['execution.results_dir']).toEqual({ source: 'default' })
    expect(settings.origins['audio.refresh_audio']).toEqual({ source: 'default' })
  })

  it('gives WALK no audio cache', () => {
    const settings = loadPhaseConfig('walk', writeToml(''), { env: {}, cwd })
    expect(Object.keys(settings.audio).sort()).toEqual(['chunk_ms', 'real_time', 'sample_rate_hz'])
    expect(settings.execution.response_timeout_seconds).toBe(30)
  })

  it('gives RUN simulation and grading sections and no single-turn timeout or audio section', () => {
    const settings = loadPhaseConfig('run', writeToml(''), { env: {}, cwd })
    expect(settings.simulation).toEqual({
      simulator_model: 'gpt-live-1',
      simulator_backend_model: 'gpt-5.6-luna',
      simulator_backend_reasoning_effort: 'low',
      tick_ms: 200,
      response_deadline_ms: 5000,
      max_duration_seconds: 90,
      work_grace_seconds: 5,
      cleanup_timeout_seconds: 10,
      semantic_drain: true,
      completion_model: 'gpt-5.6-terra',
      completion_timeout_seconds: 8,
      condition: 'clean',
      seed: 7,
      drain_ms: 1500,
      assistant_first_prompt_file: null,
      interventions_file: null,
      debug_artifacts: false,
    })
    expect(settings.grading).toMatchObject({ enabled: true, repetitions: 1 })
    expect(Object.keys(settings.execution).sort()).toEqual([
      'cassettes_dir',
      'concurrency',
      'faults',
      'max_examples',
      'mode',
      'model_concurrency',
      'models',
      'pacing_warning_ms',
      'record',
      'results_dir',
      'trials',
      'verbose',
    ])
    expect('audio' in settings).toBe(false)
  })
})

describe('TOML values', () => {
  it('applies the file and records it as the origin', () => {
    const path = writeToml(
      '[execution]\nconcurrency = 3\nverbose = true\nresponse_timeout_seconds = 45\nmode = "live"\n[assistant]\nmode = "client"\n',
    )
    const settings = loadPhaseConfig('crawl', path, { env: {}, cwd })
    expect(settings.execution.concurrency).toBe(3)
    expect(settings.execution.verbose).toBe(true)
    // An integer is a valid number: 45 for a float-typed field.
    expect(settings.execution.response_timeout_seconds).toBe(45)
    expect(settings.execution.mode).toBe('live')
    expect(settings.assistant.mode).toBe('client')
    expect(settings.origins['execution.concurrency']).toEqual({ source: 'toml', file: path })
    expect(settings.origins['execution.max_examples']).toEqual({ source: 'default' })
  })

  it.each([
    ['[execution]\nconcurrency = "four"', 'execution.concurrency must be an integer'],
    ['[execution]\nconcurrency = 1.5', 'execution.concurrency must be an integer'],
    ['[execution]\nresponse_timeout_seconds = "soon"', 'execution.response_timeout_seconds must be a number'],
    ['[execution]\nverbose = 1', 'execution.verbose must be a boolean'],
    ['[dataset]\npath = 3', 'dataset.path must be a string'],
    ['[assistant]\nendpoint = false', 'assistant.endpoint must be a string'],
    ['[execution]\nmode = "online"', 'execution.mode must be one of "offline", "live", "replay"'],
    ['[assistant]\nmode = "other"', 'assistant.mode must be one of "responses", "client"'],
    ['[execution]\nconcurrency = 0', 'execution.concurrency must be between 1 and 8'],
    ['[execution]\nconcurrency = 9', 'execution.concurrency must be between 1 and 8'],
    ['[execution]\nmax_examples = -1', 'execution.max_examples must be 0 (all) or greater'],
    ['[execution]\ntrials = 0', 'execution.trials must be 1 or greater'],
    ['[execution]\ntrials = 2.5', 'execution.trials must be an integer'],
    ['[audio]\nchunk_ms = 0', 'audio.chunk_ms must be greater than 0'],
    ['[dataset]\npath = ""', 'dataset.path must not be empty'],
    ['[audio]\nrefresh_audio = "yes"', 'audio.refresh_audio must be a boolean'],
    ['[audio]\nrefresh_audio = 1', 'audio.refresh_audio must be a boolean'],
  ])('rejects %j with the toolkit wording', (toml, problem) => {
    const path = writeToml(toml)
    expect(problemOf(() => loadPhaseConfig('crawl', path, { env: {}, cwd }))).toBe(
      `Configuration ${problem}: ${path}`,
    )
  })

  it('type-checks RUN sections too', () => {
    const path = writeToml('[grading]\nrepetitions = 0\n[simulation]\nsemantic_drain = "yes"')
    const message = problemOf(() => loadPhaseConfig('run', path, { env: {}, cwd }))
    expect(message).toContain(`Configuration grading.repetitions must be greater than 0: ${path}`)
    expect(message).toContain(`Configuration simulation.semantic_drain must be a boolean: ${path}`)
  })

  it.each([
    ['crawl', '[extras]\nx = 1', 'Configuration has unknown section [extras]'],
    ['crawl', '[execution]\nworkers = 2', 'Configuration has unknown key execution.workers'],
    ['crawl', '[simulation]\nseed = 1', 'Configuration has unknown section [simulation]'],
    ['crawl', '[models]\nlive_model = "x"', 'Configuration has unknown section [models]'],
    ['walk', '[audio]\ncache_dir = "c"', 'Configuration has unknown key audio.cache_dir'],
    ['walk', '[audio]\nrefresh_audio = true', 'Configuration has unknown key audio.refresh_audio'],
    ['run', '[audio]\nchunk_ms = 20', 'Configuration has unknown section [audio]'],
    [
      'run',
      '[execution]\nresponse_timeout_seconds = 3.0',
      'Configuration has unknown key execution.response_timeout_seconds',
    ],
    ['crawl', 'execution = 3', 'Configuration [execution] must be a table'],
  ] as const)('%s rejects %j', (phase, toml, problem) => {
    const path = writeToml(toml)
    expect(problemOf(() => loadPhaseConfig(phase, path, { env: {}, cwd }))).toBe(`${problem}: ${path}`)
  })

  it('accepts the optional keys of each phase', () => {
    const crawl = writeToml('[execution]\nresults_dir = "out"\n[audio]\ncache_dir = ".audio_cache"')
    const settings = loadPhaseConfig('crawl', crawl, { env: {}, cwd })
    expect(settings.audio.cache_dir).toBe(join(root, 'specs/crawl/.audio_cache'))
    const run = writeToml('[simulation]\ndrain_ms = 900')
    expect(loadPhaseConfig('run', run, { env: {}, cwd }).simulation.drain_ms).toBe(900)
  })

  it('reports a missing file', () => {
    const path = join(root, 'nowhere/config.toml')
    expect(problemOf(() => loadPhaseConfig('crawl', path, { env: {}, cwd }))).toBe(
      `Harness configuration does not exist: ${path}`,
    )
  })

  it('reports bad TOML with the parser position', () => {
    const path = writeToml('[execution]\nconcurrency = \n')
    expect(problemOf(() => loadPhaseConfig('crawl', path, { env: {}, cwd }))).toMatch(
      new RegExp(`^Invalid harness configuration: ${path.replaceAll('.', '\\.')}: line 2, column \\d+: \\S`),
    )
  })

  it('lists every problem at once', () => {
    const path = writeToml('[execution]\nconcurrency = "four"\nverbose = 2\n[bogus]\n')
    const error = (() => {
      try {
        loadPhaseConfig('crawl', path, { env: {}, cwd })
      } catch (caught) {
        return caught as HarnessConfigError
      }
      throw new Error('expected an error')
    })()
    expect(error.problems).toHaveLength(3)
  })
})

describe('relative paths', () => {
  it('resolve from the TOML folder, not the working directory', () => {
    const path = writeToml(
      '[dataset]\npath = "../../scenarios/crawl.json"\n[execution]\nresults_dir = "results"',
    )
    const settings = loadPhaseConfig('crawl', path, { env: {}, cwd })
    expect(settings.dataset.path).toBe(join(root, 'scenarios/crawl.json'))
    expect(settings.execution.results_dir).toBe(join(root, 'specs/crawl/results'))
  })

  it('keeps absolute paths', () => {
    const path = writeToml(`[dataset]\npath = "${join(root, 'abs.json')}"`)
    expect(loadPhaseConfig('crawl', path, { env: {}, cwd }).dataset.path).toBe(join(root, 'abs.json'))
  })

  it('resolve from the working directory when they come from the environment or an override', () => {
    const path = writeToml('')
    const fromEnv = loadPhaseConfig('crawl', path, {
      env: { LIVE_EVALS_DATASET: 'mine.json', LIVE_EVALS_RESULTS_DIR: 'out' },
      cwd,
    })
    expect(fromEnv.dataset.path).toBe(join(cwd, 'mine.json'))
    expect(fromEnv.execution.results_dir).toBe(join(cwd, 'out'))
    const fromOverride = loadPhaseConfig('crawl', path, {
      env: {},
      cwd,
      overrides: { audio: { cache_dir: 'cache' } },
    })
    expect(fromOverride.audio.cache_dir).toBe(join(cwd, 'cache'))
  })
})

describe('precedence: override > environment > TOML > default', () => {
  it('lets each layer beat the ones below and records the winner', () => {
    const path = writeToml('[execution]\nconcurrency = 2\nmax_examples = 5\nverbose = true')
    const env = { LIVE_EVALS_CONCURRENCY: '3', LIVE_EVALS_MAX_EXAMPLES: '6' }
    const settings = loadPhaseConfig('crawl', path, {
      env,
      cwd,
      overrides: { execution: { concurrency: 4 } },
    })
    expect(settings.execution.concurrency).toBe(4)
    expect(settings.origins['execution.concurrency']).toEqual({ source: 'override' })
    expect(settings.execution.max_examples).toBe(6)
    expect(settings.origins['execution.max_examples']).toEqual({
      source: 'env',
      variable: 'LIVE_EVALS_MAX_EXAMPLES',
    })
    expect(settings.execution.verbose).toBe(true)
    expect(settings.origins['execution.verbose']).toEqual({ source: 'toml', file: path })
    expect(settings.execution.response_timeout_seconds).toBe(30)
    expect(settings.origins['execution.response_timeout_seconds']).toEqual({ source: 'default' })
  })

  it('resolves audio.refresh_audio through every layer and records the winner', () => {
    const path = writeToml('[audio]\nrefresh_audio = true')
    const fromToml = loadPhaseConfig('crawl', path, { env: {}, cwd })
    expect(fromToml.audio.refresh_audio).toBe(true)
    expect(fromToml.origins['audio.refresh_audio']).toEqual({ source: 'toml', file: path })
    const env = { LIVE_EVALS_REFRESH_AUDIO: 'false' }
    const fromEnv = loadPhaseConfig('crawl', path, { env, cwd })
    expect(fromEnv.audio.refresh_audio).toBe(false)
    expect(fromEnv.origins['audio.refresh_audio']).toEqual({
      source: 'env',
      variable: 'LIVE_EVALS_REFRESH_AUDIO',
    })
    const fromOverride = loadPhaseConfig('crawl', path, {
      env,
      cwd,
      overrides: { audio: { refresh_audio: true } },
    })
    expect(fromOverride.audio.refresh_audio).toBe(true)
    expect(fromOverride.origins['audio.refresh_audio']).toEqual({ source: 'override' })
  })

  it('lets the environment beat TOML for the assistant mode', () => {
    const path = writeToml('[assistant]\nmode = "client"')
    const settings = loadPhaseConfig('crawl', path, { env: { OPENAI_ASSISTANT_MODE: 'responses' }, cwd })
    expect(settings.assistant.mode).toBe('responses')
  })

  it('rejects unknown override keys and checks override values', () => {
    const path = writeToml('')
    const unknown = { execution: { workers: 2 } } as never
    expect(problemOf(() => loadPhaseConfig('crawl', path, { env: {}, cwd, overrides: unknown }))).toBe(
      'Override has unknown key execution.workers',
    )
    expect(
      problemOf(() =>
        loadPhaseConfig('crawl', path, { env: {}, cwd, overrides: { execution: { concurrency: 12 } } }),
      ),
    ).toBe('Override execution.concurrency must be between 1 and 8')
  })
})

describe('environment variables', () => {
  const cases: [string, string, (s: ReturnType<typeof loadPhaseConfig<'run'>>) => unknown, unknown][] = [
    ['LIVE_EVALS_MODE', 'live', (s) => s.execution.mode, 'live'],
    ['LIVE_EVALS_CONCURRENCY', '8', (s) => s.execution.concurrency, 8],
    ['LIVE_EVALS_MAX_EXAMPLES', '2', (s) => s.execution.max_examples, 2],
    ['LIVE_EVALS_TRIALS', '5', (s) => s.execution.trials, 5],
    ['OPENAI_ASSISTANT_MODE', 'client', (s) => s.assistant.mode, 'client'],
    [
      'OPENAI_CLIENT_ASSISTANT_ENDPOINT',
      'wss://agent.example/ws',
      (s) => s.assistant.endpoint,
      'wss://agent.example/ws',
    ],
    [
      'OPENAI_LIVE_ENDPOINT',
      'http://127.0.0.1:9/v1',
      (s) => s.connection.live_endpoint,
      'http://127.0.0.1:9/v1',
    ],
    ['OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK', ' Yes ', (s) => s.connection.live_allow_insecure_loopback, true],
    [
      'OPENAI_CLIENT_ASSISTANT_ALLOW_INSECURE_LOOPBACK',
      '1',
      (s) => s.connection.client_assistant_allow_insecure_loopback,
      true,
    ],
    ['OPENAI_LIVE_MODEL', 'gpt-live-2', (s) => s.models.live_model, 'gpt-live-2'],
    ['OPENAI_LIVE_VOICE', 'cedar', (s) => s.models.live_voice, 'cedar'],
    ['OPENAI_LIVE_BACKEND_MODEL', 'b-model', (s) => s.models.backend_model, 'b-model'],
    ['OPENAI_LIVE_BACKEND_REASONING_EFFORT', 'high', (s) => s.models.backend_reasoning_effort, 'high'],
    ['OPENAI_LIVE_BACKEND_MAX_OUTPUT_TOKENS', '2048', (s) => s.models.backend_max_output_tokens, 2048],
    ['OPENAI_LIVE_BACKEND_VERBOSITY', 'medium', (s) => s.models.backend_verbosity, 'medium'],
    ['OPENAI_TTS_MODEL', 'tts-x', (s) => s.models.tts_model, 'tts-x'],
    ['OPENAI_EVAL_JUDGE_MODEL', 'judge-x', (s) => s.models.judge_model, 'judge-x'],
    ['OPENAI_EVAL_JUDGE_REASONING_EFFORT', 'low', (s) => s.models.judge_reasoning_effort, 'low'],
    ['OPENAI_COMPLETION_MODEL', 'c-model', (s) => s.simulation.completion_model, 'c-model'],
    ['OPENAI_API_KEY', 'sk-test', (s) => s.credentials.openai_api_key, 'sk-test'],
    ['OPENAI_RESPONSES_API_KEY', 'rk', (s) => s.credentials.responses_api_key, 'rk'],
    ['OPENAI_CLIENT_ASSISTANT_TOKEN', 'tok', (s) => s.credentials.client_assistant_token, 'tok'],
  ]

  it.each(cases)('%s sets its setting', (variable, text, read, expected) => {
    const path = writeToml('')
    const settings = loadPhaseConfig('run', path, { env: { [variable]: text }, cwd })
    expect(read(settings)).toEqual(expected)
    expect(Object.values(settings.origins)).toContainEqual({ source: 'env', variable })
  })

  it.each([
    ['true', true],
    [' ON ', true],
    ['1', true],
    ['no', false],
  ])('LIVE_EVALS_REFRESH_AUDIO=%j sets audio.refresh_audio in CRAWL', (text, expected) => {
    const settings = loadPhaseConfig('crawl', writeToml(''), { env: { LIVE_EVALS_REFRESH_AUDIO: text }, cwd })
    expect(settings.audio.refresh_audio).toBe(expected)
    expect(settings.origins['audio.refresh_audio']).toEqual({
      source: 'env',
      variable: 'LIVE_EVALS_REFRESH_AUDIO',
    })
  })

  it('ignores LIVE_EVALS_REFRESH_AUDIO in WALK and RUN, which have no speech cache', () => {
    const env = { LIVE_EVALS_REFRESH_AUDIO: 'true' }
    const walk = loadPhaseConfig('walk', writeToml(''), { env, cwd })
    expect('refresh_audio' in walk.audio).toBe(false)
    expect(walk.origins['audio.refresh_audio']).toBeUndefined()
    const run = loadPhaseConfig('run', writeToml(''), { env, cwd })
    expect(Object.values(run.origins)).not.toContainEqual({
      source: 'env',
      variable: 'LIVE_EVALS_REFRESH_AUDIO',
    })
  })

  it('treats a blank variable as unset', () => {
    const settings = loadPhaseConfig('crawl', writeToml(''), { env: { LIVE_EVALS_CONCURRENCY: '  ' }, cwd })
    expect(settings.execution.concurrency).toBe(2) // the built-in default
  })

  it('sets the RUN caller’s model from LIVE_EVALS_SIMULATOR_MODEL or the TOML, and refuses an empty one', () => {
    const fromEnv = loadPhaseConfig('run', writeToml(''), {
      env: { LIVE_EVALS_SIMULATOR_MODEL: 'gpt-live-1.1' },
      cwd,
    })
    expect(fromEnv.simulation.simulator_model).toBe('gpt-live-1.1')
    expect(fromEnv.origins['simulation.simulator_model']).toEqual({
      source: 'env',
      variable: 'LIVE_EVALS_SIMULATOR_MODEL',
    })
    const path = writeToml('[simulation]\nsimulator_model = ""')
    expect(problemOf(() => loadPhaseConfig('run', path, { env: {}, cwd }))).toContain(
      'Configuration simulation.simulator_model',
    )
  })

  it('ignores a variable whose setting the phase does not have', () => {
    const settings = loadPhaseConfig('crawl', writeToml(''), { env: { OPENAI_COMPLETION_MODEL: 'x' }, cwd })
    expect('simulation' in settings).toBe(false)
  })

  it.each([
    [
      'LIVE_EVALS_CONCURRENCY',
      'four',
      'Environment variable LIVE_EVALS_CONCURRENCY must be an integer (got "four")',
    ],
    [
      'LIVE_EVALS_CONCURRENCY',
      '9',
      'Environment variable LIVE_EVALS_CONCURRENCY: execution.concurrency must be between 1 and 8',
    ],
    [
      'LIVE_EVALS_MODE',
      'online',
      'Environment variable LIVE_EVALS_MODE: execution.mode must be one of "offline", "live", "replay"',
    ],
    [
      'OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK',
      'maybe',
      'Environment variable OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK must be',
    ],
    [
      'LIVE_EVALS_REFRESH_AUDIO',
      'sometimes',
      'Environment variable LIVE_EVALS_REFRESH_AUDIO must be true/false, yes/no, on/off or 1/0 (got "sometimes")',
    ],
    [
      'OPENAI_LIVE_BACKEND_VERBOSITY',
      'loud',
      'Environment variable OPENAI_LIVE_BACKEND_VERBOSITY: models.backend_verbosity',
    ],
  ])('rejects %s=%s naming the variable', (variable, text, problem) => {
    const path = writeToml('')
    expect(problemOf(() => loadPhaseConfig('crawl', path, { env: { [variable]: text }, cwd }))).toContain(
      problem,
    )
  })

  it('reads another TOML named by LIVE_EVALS_CONFIG, relative to the working directory', () => {
    const moduleToml = writeToml('[execution]\nconcurrency = 2')
    mkdirSync(join(cwd, 'mine'))
    writeFileSync(join(cwd, 'mine/config.toml'), '[execution]\nconcurrency = 5\n[dataset]\npath = "d.json"')
    const settings = loadPhaseConfig('crawl', moduleToml, {
      env: { LIVE_EVALS_CONFIG: 'mine/config.toml' },
      cwd,
    })
    expect(settings.config_file).toBe(join(cwd, 'mine/config.toml'))
    expect(settings.execution.concurrency).toBe(5)
    expect(settings.dataset.path).toBe(join(cwd, 'mine/d.json'))
  })

  it('reads GPT_LIVE_EVALS_REDACT_FIELDS into the settings', () => {
    const settings = loadPhaseConfig('crawl', writeToml(''), {
      env: { GPT_LIVE_EVALS_REDACT_FIELDS: 'live_voice, caller_name,' },
      cwd,
    })
    expect(settings.redact_fields).toEqual(['live_voice', 'caller_name'])
  })
  it('reads LIVE_EVALS_REDACT_FIELDS too, joined with the reference name, each name once', () => {
    const settings = loadPhaseConfig('crawl', writeToml(''), {
      env: {
        GPT_LIVE_EVALS_REDACT_FIELDS: 'live_voice',
        LIVE_EVALS_REDACT_FIELDS: 'caller_name, live_voice',
      },
      cwd,
    })
    expect(settings.redact_fields).toEqual(['live_voice', 'caller_name'])
  })
})
