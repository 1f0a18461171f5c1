import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HarnessConfigError } from './errors.ts'
import { loadPhaseConfig } from './load.ts'
import type { Phase } from './schema.ts'

let root: string
let config: string
let tapes: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-replay-tool-settings-'))
  config = join(root, 'config.toml')
  writeFileSync(config, '')
  tapes = join(root, 'tapes')
  mkdirSync(tapes)
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function problemsOf(phase: Phase, env: Record<string, string>): string[] {
  try {
    loadPhaseConfig(phase, config, { env, cwd: root })
  } catch (error) {
    if (error instanceof HarnessConfigError) return [...error.problems]
    throw error
  }
  return []
}

describe('replay tool settings', () => {
  it('reads the regrade flag in a replay, and the replayed caller (relative to the working directory) live', () => {
    const regrade = loadPhaseConfig('crawl', config, {
      env: { LIVE_EVALS_MODE: 'replay', LIVE_EVALS_REPLAY_REGRADE: '1' },
      cwd: root,
    })
    expect(regrade.replay).toMatchObject({ regrade: true, enabled: true, caller: null })
    const caller = loadPhaseConfig('run', config, {
      env: {
        LIVE_EVALS_MODE: 'live',
        OPENAI_API_KEY: 'sk-test-settings',
        LIVE_EVALS_REPLAY_CALLER: 'tapes',
        LIVE_EVALS_REPLAY_CALLER_TOOLS: 'cassette',
      },
      cwd: root,
    })
    expect(caller.replay).toMatchObject({ caller: tapes, caller_tools: 'cassette', enabled: false })
    expect(caller.origins['replay.caller']).toEqual({ source: 'env', variable: 'LIVE_EVALS_REPLAY_CALLER' })
  })

  it('refuses a regrade outside a replay, naming the setting and what to do', () => {
    const [problem] = problemsOf('walk', { LIVE_EVALS_MODE: 'live', LIVE_EVALS_REPLAY_REGRADE: 'true' })
    expect(problem).toMatch(/^replay\.regrade \(LIVE_EVALS_REPLAY_REGRADE\).*LIVE_EVALS_MODE=replay/)
  })

  it('refuses a replayed caller for CRAWL, outside a live run, while recording, or from a missing folder', () => {
    expect(problemsOf('crawl', { LIVE_EVALS_MODE: 'live', LIVE_EVALS_REPLAY_CALLER: 'tapes' })[0]).toMatch(
      /replay\.caller .*WALK or RUN cassette.*unset it for CRAWL/,
    )
    for (const mode of ['offline', 'replay']) {
      expect(problemsOf('walk', { LIVE_EVALS_MODE: mode, LIVE_EVALS_REPLAY_CALLER: 'tapes' })[0]).toContain(
        `but execution.mode is "${mode}"`,
      )
    }
    expect(
      problemsOf('run', {
        LIVE_EVALS_MODE: 'live',
        LIVE_EVALS_RECORD: '1',
        LIVE_EVALS_REPLAY_CALLER: 'tapes',
      })[0],
    ).toContain('cannot be combined')
    expect(problemsOf('walk', { LIVE_EVALS_MODE: 'live', LIVE_EVALS_REPLAY_CALLER: 'nowhere' })[0]).toContain(
      `names ${join(root, 'nowhere')}, which is not a folder`,
    )
  })

  it('names a bad caller_tools value', () => {
    expect(problemsOf('run', { LIVE_EVALS_REPLAY_CALLER_TOOLS: 'both' }).join('\n')).toMatch(
      /replay\.caller_tools must be one of "application", "cassette"/,
    )
  })
})
