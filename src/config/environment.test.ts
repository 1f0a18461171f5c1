import { describe, expect, it } from 'vitest'
import { ENVIRONMENT_SETTINGS, type EnvironmentSetting, environmentValues } from './environment.ts'
import { HarnessConfigError } from './errors.ts'
import { isSecretName } from './redact.ts'

const SENTINEL = 'sentinel-secret-4b7e1d09'

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessConfigError)
    return (error as HarnessConfigError).problems
  }
  throw new Error('expected a configuration error')
}

describe('environmentValues and secrets', () => {
  it('every credential variable names a credentials.* key whose name reads as secret', () => {
    const credentials = ENVIRONMENT_SETTINGS.filter((setting) => setting.key.startsWith('credentials.'))
    expect(credentials.map((setting) => setting.variable).sort()).toEqual([
      'OPENAI_API_KEY',
      'OPENAI_CLIENT_ASSISTANT_TOKEN',
      'OPENAI_RESPONSES_API_KEY',
    ])
    for (const setting of credentials) expect(isSecretName(setting.key.split('.')[1] ?? '')).toBe(true)
  })

  it('quotes a bad ordinary value, so a person sees what they typed', () => {
    expect(problemsOf(() => environmentValues('crawl', { LIVE_EVALS_CONCURRENCY: 'four' }))).toEqual([
      'Environment variable LIVE_EVALS_CONCURRENCY must be an integer (got "four")',
    ])
  })

  it('never quotes the value of a credential that fails to convert', () => {
    // Today every credential is text, which cannot fail to convert; a numeric secret added later must
    // still keep its value out of the message. The extra setting exists only inside this test.
    const table = ENVIRONMENT_SETTINGS as EnvironmentSetting[]
    table.push({ variable: 'LIVE_EVALS_TEST_PIN_TOKEN', key: 'credentials.test_pin', kind: 'integer' })
    try {
      const problems = problemsOf(() =>
        environmentValues('crawl', { LIVE_EVALS_TEST_PIN_TOKEN: SENTINEL, OPENAI_API_KEY: SENTINEL }),
      )
      expect(problems).toEqual(['Environment variable LIVE_EVALS_TEST_PIN_TOKEN must be an integer'])
      expect(problems.join('\n')).not.toContain(SENTINEL)
    } finally {
      table.pop()
    }
  })
})
