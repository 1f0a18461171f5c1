// Which errors stop a whole live run: account problems wherever they sit in the cause chain; never one scenario's.
import { AuthenticationError, RateLimitError } from 'openai'
import { describe, expect, test } from 'vitest'
import { LiveSessionError } from '../live/index.ts'
import { StageError } from '../phases/engine/stage.ts'
import { runStoppingReason } from './run-stop.ts'

const headers = new Headers()

describe('runStoppingReason', () => {
  test('a refused key or an exhausted quota from the HTTP API stops the run', () => {
    const refused = new AuthenticationError(401, { code: 'invalid_api_key', message: 'no' }, 'no', headers)
    expect(runStoppingReason(new StageError('audio_synthesis', 'x', { cause: refused }))).toBe(
      'the OpenAI API answered HTTP 401 invalid_api_key',
    )
    const quota = new RateLimitError(429, { code: 'insufficient_quota', message: 'q' }, 'q', headers)
    expect(runStoppingReason(quota)).toBe('the OpenAI API answered HTTP 429 insufficient_quota')
  })

  test('a GPT-Live account error or a refused upgrade stops the run', () => {
    const serverError = new LiveSessionError('server error', {
      stage: 'start',
      kind: 'server_error',
      serverError: { type: 'error', code: 'insufficient_quota', message: 'quota' } as never,
    })
    expect(runStoppingReason(serverError)).toBe('GPT-Live answered server error insufficient_quota')
    const upgrade = new LiveSessionError('Unexpected server response: 403', {
      stage: 'connect',
      kind: 'transport',
    })
    expect(runStoppingReason(upgrade)).toBe('GPT-Live refused the connection with HTTP 403')
  })

  test("a rate limit, a timeout or one scenario's bad request does not", () => {
    const busy = new RateLimitError(429, { code: 'rate_limit_exceeded', message: 'slow' }, 'slow', headers)
    expect(runStoppingReason(busy)).toBeNull()
    expect(
      runStoppingReason(new LiveSessionError('no session.started', { stage: 'start', kind: 'timeout' })),
    ).toBeNull()
    expect(runStoppingReason(new Error('Unexpected server response: 500'))).toBeNull()
    expect(runStoppingReason('not an error')).toBeNull()
  })
})
