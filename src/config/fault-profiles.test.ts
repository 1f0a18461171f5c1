import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FAULT_PROFILES, faultProfile } from './fault-profiles.ts'
import { loadPhaseConfig } from './load.ts'

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-faults-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function toml(text: string): string {
  const path = join(root, 'config.toml')
  writeFileSync(path, text)
  return path
}

describe('execution.faults', () => {
  it('is null (no faults) unless a profile is named', () => {
    expect(loadPhaseConfig('run', toml(''), { env: {}, cwd: root }).execution.faults).toBeNull()
  })

  it('takes a bundled profile from the TOML file or LIVE_EVALS_FAULTS', () => {
    const fromFile = loadPhaseConfig('run', toml('[execution]\nfaults = "backend-flaky"'), {
      env: {},
      cwd: root,
    })
    expect(fromFile.execution.faults).toBe('backend-flaky')
    const fromEnv = loadPhaseConfig('run', toml(''), {
      env: { LIVE_EVALS_FAULTS: 'backend-down' },
      cwd: root,
    })
    expect(fromEnv.execution.faults).toBe('backend-down')
  })

  it('rejects an unknown profile naming the setting and the known names', () => {
    expect(() =>
      loadPhaseConfig('run', toml(''), { env: { LIVE_EVALS_FAULTS: 'backend-haunted' }, cwd: root }),
    ).toThrow(/LIVE_EVALS_FAULTS.*"none", "backend-flaky", "backend-down", "backend-wrong-data"/)
    expect(() =>
      loadPhaseConfig('run', toml('[execution]\nfaults = "nope"'), { env: {}, cwd: root }),
    ).toThrow(/execution\.faults must be one of "none", "backend-flaky"/)
    expect(() => faultProfile('nope')).toThrow(
      /execution\.faults .*unknown fault profile "nope".*"backend-flaky"/,
    )
  })

  it('bundles backend-flaky with tools, kinds, rates and a seed', () => {
    const profile = faultProfile('backend-flaky')
    expect(profile).toBe(FAULT_PROFILES['backend-flaky'])
    expect(profile.seed).toBe(22)
    expect(new Set(profile.rules.map((rule) => rule.kind))).toEqual(
      new Set(['timeout', 'error', 'empty', 'slow']),
    )
  })
})
