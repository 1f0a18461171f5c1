// The unit project's environment (vitest.config.ts) keeps unit tests off the internet: the openai SDK reads
// OPENAI_BASE_URL when a client is built without a baseURL (the judge's and the observer's clients are), and here it
// names a closed loopback port, so a test that forgets to point a client at its own server fails to connect instead
// of dialling api.openai.com. Its temporary folder is the run's own (run-temp-folder-setup.test-helpers.ts), so what
// tests leave in it goes when the run ends.
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { basename } from 'node:path'
import OpenAI from 'openai'
import { afterEach, describe, expect, test, vi } from 'vitest'

const LOOPBACK = /^http:\/\/127\.0\.0\.1:\d+\/v1$/

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('the unit project’s environment', () => {
  test('an openai client built without a baseURL points at loopback, not the OpenAI API', () => {
    expect(process.env.OPENAI_BASE_URL).toMatch(LOOPBACK)
    const client = new OpenAI({ apiKey: 'sk-test-unit-environment' })
    expect(client.baseURL).toMatch(LOOPBACK)
    expect(client.baseURL).not.toContain('openai.com')
  })

  test('a test that stubs its own server gets it, and the loopback default comes back after', () => {
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:4321/v1')
    expect(new OpenAI({ apiKey: 'k' }).baseURL).toBe('http://127.0.0.1:4321/v1')
    vi.unstubAllEnvs()
    expect(new OpenAI({ apiKey: 'k' }).baseURL).toMatch(LOOPBACK)
  })

  test('temporary files go to the run’s own folder, in this worker and in the processes tests start', () => {
    expect(basename(tmpdir())).toMatch(/^live-evals-unit-run-/)
    const childTmp = execFileSync(process.execPath, [
      '-e',
      'process.stdout.write(require("node:os").tmpdir())',
    ])
    expect(childTmp.toString()).toBe(tmpdir())
  })
})
