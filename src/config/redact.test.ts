import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadPhaseConfig } from './load.ts'
import { credentialValues, describeSettings, isSecretName, REDACTED, redactSecrets } from './redact.ts'

const SENTINEL_KEY = 'sentinel-api-key-7c1f9e2b'
const SENTINEL_TOKEN = 'sentinel-token-0a9d3b7e5f'
const dir = mkdtempSync(join(tmpdir(), 'live-evals-redact-'))
const toml = join(dir, 'config.toml')
writeFileSync(toml, '')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('isSecretName', () => {
  it.each([
    'api_key',
    'OPENAI_API_KEY',
    'openai_api_key',
    'clientAssistantToken',
    'password',
    'Authorization',
    'client_secret',
    'apiKey',
  ])('treats %s as secret', (name) => {
    expect(isSecretName(name)).toBe(true)
  })

  it.each(['backend_max_output_tokens', 'keyboard', 'monkey', 'tokenizer', 'live_voice', 'endpoint'])(
    'does not treat %s as secret',
    (name) => {
      expect(isSecretName(name)).toBe(false)
    },
  )

  it('adds extra names, matched whole and case-insensitively', () => {
    expect(isSecretName('Caller_Name', ['caller_name'])).toBe(true)
    expect(isSecretName('caller_name_hint', ['caller_name'])).toBe(false)
  })
})

describe('describeSettings', () => {
  const settings = loadPhaseConfig('crawl', toml, {
    cwd: dir,
    env: {
      OPENAI_API_KEY: SENTINEL_KEY,
      OPENAI_CLIENT_ASSISTANT_TOKEN: SENTINEL_TOKEN,
      // A secret copied into an ordinary field must not leak through it.
      OPENAI_CLIENT_ASSISTANT_ENDPOINT: `wss://agent.example/ws?auth=${SENTINEL_TOKEN}`,
      OPENAI_LIVE_ENDPOINT: 'https://gateway.example/v1/sk-abcdefghijklmnopqrstu',
      GPT_LIVE_EVALS_REDACT_FIELDS: 'live_voice',
    },
  })
  const described = describeSettings(settings)
  const text = JSON.stringify(described)

  it('lists every credential the settings hold, and only those, for scrubbing by value', () => {
    expect(credentialValues(settings).sort()).toEqual([SENTINEL_KEY, SENTINEL_TOKEN].sort())
  })

  it('never contains the secret values', () => {
    expect(text).not.toContain(SENTINEL_KEY)
    expect(text).not.toContain(SENTINEL_TOKEN)
    expect(text).not.toContain('sk-abcdefghijklmnopqrstu')
  })

  it('replaces secret fields by the marker and keeps unset ones null', () => {
    expect(described.credentials).toEqual({
      openai_api_key: REDACTED,
      responses_api_key: null,
      client_assistant_token: REDACTED,
    })
    expect((described.assistant as { endpoint: string }).endpoint).toBe(
      `wss://agent.example/ws?auth=${REDACTED}`,
    )
    expect((described.connection as { live_endpoint: string }).live_endpoint).toBe(
      `https://gateway.example/v1/${REDACTED}`,
    )
  })

  it('redacts the names listed in GPT_LIVE_EVALS_REDACT_FIELDS and keeps ordinary values', () => {
    const models = described.models as Record<string, unknown>
    expect(models.live_voice).toBe(REDACTED)
    expect(models.backend_max_output_tokens).toBe(1000)
    expect(models.live_model).toBe('gpt-live-1')
  })

  it('does not change the settings it describes', () => {
    expect(settings.credentials.openai_api_key).toBe(SENTINEL_KEY)
  })
})

describe('redactSecrets', () => {
  it('walks arrays and nested objects and scrubs given secret values everywhere', () => {
    const value = { events: [{ headers: { Authorization: 'Bearer abc' }, note: 'used xyz-secret-1234' }] }
    expect(redactSecrets(value, { secretValues: ['xyz-secret-1234'] })).toEqual({
      events: [{ headers: { Authorization: REDACTED }, note: `used ${REDACTED}` }],
    })
  })

  it('does not scrub short values by value (too likely to appear by chance)', () => {
    expect(redactSecrets({ api_key: 'abc', note: 'abc' })).toEqual({ api_key: REDACTED, note: 'abc' })
  })
})
