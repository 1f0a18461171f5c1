import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { assertLiveCredentials } from './live-credentials.ts'
import { loadPhaseConfig } from './load.ts'

const dir = mkdtempSync(join(tmpdir(), 'live-evals-credentials-'))
const toml = join(dir, 'config.toml')
writeFileSync(toml, '')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('assertLiveCredentials', () => {
  it('fails a live run without OPENAI_API_KEY and says how to run offline', () => {
    const settings = loadPhaseConfig('crawl', toml, { cwd: dir, env: { LIVE_EVALS_MODE: 'live' } })
    expect(() => assertLiveCredentials(settings)).toThrow(
      /OPENAI_API_KEY is required.*LIVE_EVALS_MODE=offline/,
    )
  })

  it('accepts a live run with a key and an offline run without one', () => {
    const live = loadPhaseConfig('run', toml, {
      cwd: dir,
      env: { LIVE_EVALS_MODE: 'live', OPENAI_API_KEY: 'k' },
    })
    expect(() => assertLiveCredentials(live)).not.toThrow()
    const offline = loadPhaseConfig('walk', toml, { cwd: dir, env: {} })
    expect(() => assertLiveCredentials(offline)).not.toThrow()
  })
})
