import { describe, expect, it } from 'vitest'
import { DEFAULT_OPENAI_BASE_URL, isLoopbackHost, resolveLiveEndpoint } from './endpoint.ts'
import { LiveSessionError } from './errors.ts'
import { LiveSession } from './session.ts'

const refusal = (fn: () => unknown): LiveSessionError => {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(LiveSessionError)
    return error as LiveSessionError
  }
  throw new Error('expected a refusal')
}

describe('live endpoint settings and transport security', () => {
  it('defaults to the OpenAI API over wss, whatever OPENAI_BASE_URL says', () => {
    const previous = process.env.OPENAI_BASE_URL
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1'
    try {
      const endpoint = resolveLiveEndpoint({ apiKey: 'sk-test' })
      expect(endpoint.url.href).toBe('wss://api.openai.com/v1/live/sessions')
      expect(DEFAULT_OPENAI_BASE_URL).toBe('https://api.openai.com/v1')
      expect(endpoint.settings).toMatchObject({ allowInsecureLoopback: false, startTimeoutMs: 15_000 })
    } finally {
      if (previous === undefined) delete process.env.OPENAI_BASE_URL
      else process.env.OPENAI_BASE_URL = previous
    }
  })

  it('maps an https base URL to wss on the same host and path, as LiveWS does', () => {
    const endpoint = resolveLiveEndpoint({ apiKey: 'k', baseURL: 'https://example.test/openai/v1' })
    expect(endpoint.url.href).toBe('wss://example.test/openai/v1/live/sessions')
  })

  it('refuses plain ws/http outside loopback, even with the loopback opt-in', () => {
    for (const baseURL of ['http://example.test/v1', 'ws://10.0.0.5:8080/v1']) {
      const error = refusal(() => resolveLiveEndpoint({ apiKey: 'k', baseURL, allowInsecureLoopback: true }))
      expect(error).toMatchObject({ stage: 'configuration', kind: 'insecure_endpoint' })
      const given = baseURL.split('//')[0]
      expect(error.message).toContain(`refusing unencrypted ${given}// to `)
      expect(error.message).toContain(
        'outside loopback the session needs wss (give an https:// OPENAI_LIVE_ENDPOINT)',
      )
    }
  })

  it('refuses plain ws to loopback without the explicit opt-in, and allows it with it', () => {
    const error = refusal(() => resolveLiveEndpoint({ apiKey: 'k', baseURL: 'http://127.0.0.1:4000/v1' }))
    // The scheme the user gave and the variable the user sets, not LiveWS's ws:// or the code's option name.
    expect(error.message).toBe(
      'GPT-Live session configuration: refusing unencrypted http:// to loopback 127.0.0.1:4000: set ' +
        'OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK=1 to allow it (meant for the offline server)',
    )
    for (const host of ['127.0.0.1:4000', 'localhost:4000', '[::1]:4000']) {
      const endpoint = resolveLiveEndpoint({
        apiKey: 'k',
        baseURL: `http://${host}/v1`,
        allowInsecureLoopback: true,
      })
      expect(endpoint.url.href).toBe(`ws://${host}/v1/live/sessions`)
    }
  })

  it('refuses base URLs carrying credentials, without echoing them', () => {
    const error = refusal(() =>
      resolveLiveEndpoint({ apiKey: 'k', baseURL: 'https://user:hunter2@example.test/v1' }),
    )
    expect(error).toMatchObject({ kind: 'insecure_endpoint' })
    expect(error.message).toMatch(/carries credentials/)
    expect(error.message).not.toContain('hunter2')
    refusal(() => resolveLiveEndpoint({ apiKey: 'k', baseURL: 'https://token@example.test/v1' }))
  })

  it('refuses credential-like query parameters, naming the parameter but never its value', () => {
    const names = [
      'api_key',
      'apikey',
      'access_token',
      'client_secret',
      'password',
      'auth',
      'X-Amz-Signature',
    ]
    for (const name of [...names, 'API-KEY', 'Token', 'Authorization']) {
      const error = refusal(() =>
        resolveLiveEndpoint({ apiKey: 'k', baseURL: `https://example.test/v1?region=eu&${name}=hunter2` }),
      )
      expect(error).toMatchObject({ stage: 'configuration', kind: 'insecure_endpoint' })
      expect(error.message).toContain(`credential-like query parameters ("${name}")`)
      expect(error.message).not.toContain('hunter2')
    }
    // A name that is not an ordinary identifier may itself be a pasted secret: it is not shown.
    const pasted = refusal(() =>
      resolveLiveEndpoint({ apiKey: 'k', baseURL: 'https://example.test/v1?sk-key/hunter2' }),
    )
    expect(pasted.message).toMatch(/credential-like query parameters \(a parameter whose name is not shown\)/)
    expect(pasted.message).not.toContain('hunter2')
  })

  it('accepts ordinary query parameters', () => {
    const endpoint = resolveLiveEndpoint({
      apiKey: 'k',
      baseURL: 'https://example.test/v1?api-version=2026-01&region=eu',
    })
    expect(endpoint.url.protocol).toBe('wss:')
  })

  it('refuses any fragment, without echoing it', () => {
    for (const baseURL of [
      'https://example.test/v1#access_token=hunter2',
      'https://example.test/v1#hunter2',
      'https://example.test/v1#',
    ]) {
      const error = refusal(() => resolveLiveEndpoint({ apiKey: 'k', baseURL }))
      expect(error).toMatchObject({ stage: 'configuration', kind: 'insecure_endpoint' })
      expect(error.message).toMatch(/carries a #fragment/)
      expect(error.message).not.toContain('hunter2')
    }
  })

  it('rejects invalid settings with the field named', () => {
    expect(refusal(() => resolveLiveEndpoint({ apiKey: '' })).message).toMatch(/apiKey/)
    expect(refusal(() => resolveLiveEndpoint({ apiKey: 'k', baseURL: 'not a url' })).message).toMatch(
      /absolute URL/,
    )
    expect(
      refusal(() => resolveLiveEndpoint({ apiKey: 'k', baseURL: 'ftp://example.test/v1' })).message,
    ).toMatch(/http\(s\) or ws\(s\)/)
    const unknown = { apiKey: 'k', baseUrl: 'https://x.test' } as unknown as Parameters<
      typeof resolveLiveEndpoint
    >[0]
    expect(refusal(() => resolveLiveEndpoint(unknown)).message).toMatch(/baseUrl/)
  })

  it('a session refuses an insecure endpoint before dialing anything', () => {
    const error = refusal(() => new LiveSession({ apiKey: 'k', baseURL: 'http://example.test/v1' }))
    expect(error.stage).toBe('configuration')
  })

  it('recognises loopback hosts only', () => {
    expect(['127.0.0.1', '127.8.9.10', 'localhost', '[::1]'].every(isLoopbackHost)).toBe(true)
    expect(['10.0.0.1', '128.0.0.1', 'localhost.example.test', '127.0.0.1.nip.io'].some(isLoopbackHost)).toBe(
      false,
    )
  })
})
