import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { chooseEnvironmentFile, loadEnvironment } from './env-file.ts'

let cwd: string

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'live-evals-env-'))
})
afterEach(() => rmSync(cwd, { recursive: true, force: true }))

describe('loadEnvironment', () => {
  it('reads <cwd>/.env when no variable names a file, parsed by util.parseEnv', () => {
    writeFileSync(join(cwd, '.env'), '# a comment\nLIVE_EVALS_MODE=live\nOPENAI_LIVE_VOICE="cedar"\n')
    const env = loadEnvironment({ env: { PATH: '/bin' }, cwd })
    expect(env).toEqual({ PATH: '/bin', LIVE_EVALS_MODE: 'live', OPENAI_LIVE_VOICE: 'cedar' })
  })

  it('lets values already in the shell win over the file, even empty ones', () => {
    writeFileSync(join(cwd, '.env'), 'LIVE_EVALS_MODE=live\nLIVE_EVALS_CONCURRENCY=4\n')
    const env = loadEnvironment({ env: { LIVE_EVALS_MODE: 'offline', LIVE_EVALS_CONCURRENCY: '' }, cwd })
    expect(env.LIVE_EVALS_MODE).toBe('offline')
    expect(env.LIVE_EVALS_CONCURRENCY).toBe('')
  })

  it('returns the shell values unchanged when there is no .env', () => {
    expect(loadEnvironment({ env: { A: '1' }, cwd })).toEqual({ A: '1' })
  })

  it('reads the file named by LIVE_EVALS_ENV_FILE (relative to cwd) instead of .env', () => {
    writeFileSync(join(cwd, '.env'), 'FROM_DEFAULT=1\n')
    mkdirSync(join(cwd, 'conf'))
    writeFileSync(join(cwd, 'conf/live.env'), 'FROM_NAMED=1\n')
    const env = loadEnvironment({ env: { LIVE_EVALS_ENV_FILE: 'conf/live.env' }, cwd })
    expect(env.FROM_NAMED).toBe('1')
    expect(env.FROM_DEFAULT).toBeUndefined()
  })

  it("accepts the reference toolkit's GPT_LIVE_EVALS_ENV_FILE", () => {
    writeFileSync(join(cwd, 'other.env'), 'FROM_NAMED=2\n')
    const env = loadEnvironment({ env: { GPT_LIVE_EVALS_ENV_FILE: join(cwd, 'other.env') }, cwd })
    expect(env.FROM_NAMED).toBe('2')
  })

  it('fails when a named file does not exist, naming the file and the variable', () => {
    expect(() => loadEnvironment({ env: { LIVE_EVALS_ENV_FILE: 'missing.env' }, cwd })).toThrow(
      `Environment file ${join(cwd, 'missing.env')} (named by LIVE_EVALS_ENV_FILE) does not exist`,
    )
  })

  it('fails when the two naming variables disagree', () => {
    expect(() =>
      chooseEnvironmentFile({ LIVE_EVALS_ENV_FILE: 'a.env', GPT_LIVE_EVALS_ENV_FILE: 'b.env' }, cwd),
    ).toThrow('LIVE_EVALS_ENV_FILE and GPT_LIVE_EVALS_ENV_FILE name different files')
    expect(
      chooseEnvironmentFile({ LIVE_EVALS_ENV_FILE: 'a.env', GPT_LIVE_EVALS_ENV_FILE: './a.env' }, cwd),
    ).toEqual({
      path: join(cwd, 'a.env'),
      namedBy: 'LIVE_EVALS_ENV_FILE',
    })
  })

  it('never touches process.env: the file is merged into the returned copy only', () => {
    const fresh = `LIVE_EVALS_TEST_FRESH_${process.pid}`
    const taken = `LIVE_EVALS_TEST_TAKEN_${process.pid}`
    writeFileSync(join(cwd, '.env'), `${fresh}=from-file\n${taken}=from-file\n`)
    process.env[taken] = 'from-shell'
    try {
      const merged = loadEnvironment({ cwd })
      expect(process.env[fresh]).toBeUndefined()
      expect(merged[fresh]).toBe('from-file')
      expect(merged[taken]).toBe('from-shell')
    } finally {
      delete process.env[fresh]
      delete process.env[taken]
    }
  })
})
