// A child process's environment (child-environment.test-helpers.ts): nothing of this Vitest, of live-evals or
// OpenAI settings, or of the parent's NODE_OPTIONS; the heap option, CI and no colours; what the caller clears
// and sets on top.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { testChildEnvironment } from './child-environment.test-helpers.ts'
import { TEST_HEAP_OPTION } from './test-heap.test-helpers.ts'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('a child process’s environment', () => {
  test('leaves out Vitest’s variables, every live-evals and OpenAI setting and the parent’s NODE_OPTIONS', () => {
    vi.stubEnv('LIVE_EVALS_MODE', 'live')
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-SENTINEL-child-environment')
    vi.stubEnv('GPT_LIVE_EVALS_DATASET', 'sentinel.json')
    vi.stubEnv('NODE_OPTIONS', '--inspect-brk')
    vi.stubEnv('SOME_USER_VARIABLE', 'kept')
    const env = testChildEnvironment()
    expect(
      Object.keys(env).filter((name) => /^(VITEST|LIVE_EVALS_|OPENAI_|GPT_LIVE_EVALS_)/.test(name)),
    ).toEqual([])
    expect(env.NODE_OPTIONS).toBe(TEST_HEAP_OPTION)
    expect(env).toMatchObject({ CI: '1', NO_COLOR: '1', SOME_USER_VARIABLE: 'kept', PATH: process.env.PATH })
  })

  test('clears the caller’s own prefixes too, and sets its variables last', () => {
    vi.stubEnv('npm_config_registry', 'http://127.0.0.1:9/')
    vi.stubEnv('GITHUB_ACTIONS', 'true')
    const env = testChildEnvironment({
      alsoCleared: /^npm_/,
      extra: { NO_COLOR: '0', LIVE_EVALS_ENV_FILE: '/dev/null' },
    })
    expect(env.npm_config_registry).toBeUndefined()
    expect(env.GITHUB_ACTIONS).toBe('true')
    expect(env.NO_COLOR).toBe('0')
    expect(env.LIVE_EVALS_ENV_FILE).toBe('/dev/null')
  })
})
