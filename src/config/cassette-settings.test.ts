import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { REPLAY_PLACEHOLDER_KEY } from './cassette-settings.ts'
import { HarnessConfigError } from './errors.ts'
import { loadPhaseConfig } from './load.ts'

let root: string
let config: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-cassette-settings-'))
  mkdirSync(join(root, 'specs', 'run'), { recursive: true })
  config = join(root, 'specs', 'run', 'config.toml')
  writeFileSync(config, '')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('cassette settings', () => {
  it('records nothing by default and keeps cassettes in cassettes/<phase>/ beside the TOML file', () => {
    const settings = loadPhaseConfig('run', config, { env: {}, cwd: root })
    expect(settings.execution.record).toBe(false)
    expect(settings.execution.cassettes_dir).toBe(join(root, 'specs', 'run', 'cassettes', 'run'))
    expect(settings.replay).toEqual({
      match: 'strict',
      regrade: false,
      caller: null,
      caller_tools: 'application',
      enabled: false,
    })
  })

  it('reads LIVE_EVALS_RECORD and LIVE_EVALS_CASSETTES (relative to the working directory) in a live run', () => {
    const env = { LIVE_EVALS_MODE: 'live', LIVE_EVALS_RECORD: '1', LIVE_EVALS_CASSETTES: 'tapes' }
    const settings = loadPhaseConfig('run', config, { env, cwd: root })
    expect(settings.execution.record).toBe(true)
    expect(settings.execution.cassettes_dir).toBe(join(root, 'tapes'))
    expect(settings.origins['execution.record']).toEqual({ source: 'env', variable: 'LIVE_EVALS_RECORD' })
  })

  it('refuses recording outside a live run instead of silently writing nothing', () => {
    for (const mode of ['offline', 'replay']) {
      expect(() =>
        loadPhaseConfig('run', config, {
          env: { LIVE_EVALS_MODE: mode, LIVE_EVALS_RECORD: 'true' },
          cwd: root,
        }),
      ).toThrow(HarnessConfigError)
      try {
        loadPhaseConfig('run', config, {
          env: { LIVE_EVALS_MODE: mode, LIVE_EVALS_RECORD: 'true' },
          cwd: root,
        })
      } catch (error) {
        expect((error as Error).message).toContain(`records live runs only, but execution.mode is "${mode}"`)
      }
    }
  })

  it('turns LIVE_EVALS_MODE=replay into the live code path, keyless, with the chosen match', () => {
    const env = { LIVE_EVALS_MODE: 'replay', LIVE_EVALS_REPLAY_MATCH: 'lenient' }
    const settings = loadPhaseConfig('run', config, { env, cwd: root })
    expect(settings.execution.mode).toBe('live')
    expect(settings.replay).toMatchObject({ match: 'lenient', enabled: true })
    expect(settings.credentials.openai_api_key).toBe(REPLAY_PLACEHOLDER_KEY)
    const keyed = loadPhaseConfig('run', config, {
      env: { ...env, OPENAI_API_KEY: 'sk-own-key-0123456789abcdef' },
      cwd: root,
    })
    expect(keyed.credentials.openai_api_key).toBe('sk-own-key-0123456789abcdef')
  })

  it('names a bad replay.match', () => {
    expect(() =>
      loadPhaseConfig('run', config, { env: { LIVE_EVALS_REPLAY_MATCH: 'fuzzy' }, cwd: root }),
    ).toThrow(/replay\.match must be one of "strict", "lenient"/)
  })
})
