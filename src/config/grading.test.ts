// The [grading] section (the semantic judge) in every phase: defaults, TOML, environment, and the problems each
// layer can have, named by key and origin.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HarnessConfigError } from './errors.ts'
import { loadPhaseConfig, NO_CONFIG_FILE } from './load.ts'
import { PHASES } from './schema.ts'

let root: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-grading-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function toml(text: string): string {
  const path = join(root, 'config.toml')
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

describe('[grading]', () => {
  it.each(PHASES)(
    '%s has the judge on, one repetition, the Responses backend and the cache on by default',
    (phase) => {
      const settings = loadPhaseConfig(phase, toml(''), { env: {}, cwd: root })
      expect(settings.grading).toEqual({
        enabled: true,
        repetitions: 1,
        backend: 'responses',
        decisions_model: 'gpt-6-luna',
        cache: true,
        cache_dir: null,
        timeout_seconds: 60,
        max_concurrent_requests: 4,
        max_dead_air_ms: 1_000,
      })
    },
  )

  it('reads the TOML section, resolving cache_dir from the TOML folder', () => {
    const path = toml(
      [
        '[grading]',
        'enabled = false',
        'repetitions = 3',
        'backend = "decisions"',
        'decisions_model = "gpt-6-luna-preview"',
        'cache = false',
        'cache_dir = "judge-cache"',
        'timeout_seconds = 12.5',
        'max_concurrent_requests = 2',
      ].join('\n'),
    )
    const settings = loadPhaseConfig('crawl', path, { env: {}, cwd: '/' })
    expect(settings.grading).toEqual({
      enabled: false,
      repetitions: 3,
      backend: 'decisions',
      decisions_model: 'gpt-6-luna-preview',
      cache: false,
      cache_dir: join(root, 'judge-cache'),
      timeout_seconds: 12.5,
      max_concurrent_requests: 2,
      max_dead_air_ms: 1_000,
    })
    expect(settings.origins['grading.backend']).toEqual({ source: 'toml', file: path })
  })

  it('lets the environment beat the TOML, and records the variable', () => {
    const settings = loadPhaseConfig('walk', toml('[grading]\nenabled = true\nrepetitions = 2\n'), {
      cwd: root,
      env: {
        LIVE_EVALS_JUDGE: 'off',
        LIVE_EVALS_JUDGE_REPETITIONS: '5',
        LIVE_EVALS_JUDGE_BACKEND: 'decisions',
        OPENAI_EVAL_DECISIONS_MODEL: 'gpt-6-luna-2',
        LIVE_EVALS_JUDGE_CACHE: 'no',
        LIVE_EVALS_JUDGE_CACHE_DIR: 'cache-here',
        LIVE_EVALS_JUDGE_TIMEOUT_SECONDS: '7.5',
        LIVE_EVALS_JUDGE_MAX_CONCURRENT_REQUESTS: '1',
        LIVE_EVALS_MAX_DEAD_AIR_MS: '1500',
      },
    })
    expect(settings.grading).toEqual({
      enabled: false,
      repetitions: 5,
      backend: 'decisions',
      decisions_model: 'gpt-6-luna-2',
      cache: false,
      cache_dir: join(root, 'cache-here'),
      timeout_seconds: 7.5,
      max_concurrent_requests: 1,
      max_dead_air_ms: 1500,
    })
    expect(settings.origins['grading.enabled']).toEqual({ source: 'env', variable: 'LIVE_EVALS_JUDGE' })
  })

  it('names the key and the file of a bad TOML value', () => {
    const path = toml('[grading]\nbackend = "oracle"\nrepetitions = 0\ntimeout_seconds = -1\n')
    const message = problemOf(() => loadPhaseConfig('crawl', path, { env: {}, cwd: root }))
    expect(message).toContain(
      `Configuration grading.backend must be one of "responses", "decisions": ${path}`,
    )
    expect(message).toContain(`Configuration grading.repetitions must be greater than 0: ${path}`)
    expect(message).toContain(`Configuration grading.timeout_seconds must be greater than 0: ${path}`)
  })

  it('names the variable of a bad environment value', () => {
    const message = problemOf(() =>
      loadPhaseConfig('crawl', toml(''), {
        cwd: root,
        env: { LIVE_EVALS_JUDGE_TIMEOUT_SECONDS: 'soon', LIVE_EVALS_JUDGE: 'maybe' },
      }),
    )
    expect(message).toContain(
      'Environment variable LIVE_EVALS_JUDGE_TIMEOUT_SECONDS must be a number (got "soon")',
    )
    expect(message).toContain('Environment variable LIVE_EVALS_JUDGE must be true/false')
  })

  it('resolves from the defaults and the environment alone when no TOML file is named (live-evals grade)', () => {
    const settings = loadPhaseConfig('crawl', null, {
      cwd: root,
      env: { OPENAI_EVAL_JUDGE_MODEL: 'judge-x', LIVE_EVALS_JUDGE_CACHE_DIR: 'c' },
    })
    expect(settings.config_file).toBe(NO_CONFIG_FILE)
    expect(settings.models.judge_model).toBe('judge-x')
    expect(settings.grading.cache_dir).toBe(join(root, 'c'))
    expect(settings.dataset.path).toBe(join(root, 'data/scenarios.json'))
    // LIVE_EVALS_CONFIG still names a file to read.
    const named = loadPhaseConfig('crawl', null, {
      cwd: root,
      env: { LIVE_EVALS_CONFIG: toml('[grading]\nrepetitions = 2\n') },
    })
    expect(named.grading.repetitions).toBe(2)
  })

  it('refuses a number with trailing text from the environment instead of reading its prefix', () => {
    const message = problemOf(() =>
      loadPhaseConfig('crawl', toml(''), { cwd: root, env: { LIVE_EVALS_JUDGE_TIMEOUT_SECONDS: '10s' } }),
    )
    expect(message).toContain('LIVE_EVALS_JUDGE_TIMEOUT_SECONDS must be a number (got "10s")')
  })
})
