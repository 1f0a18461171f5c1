// The replay server's HTTP side on a hand-written cassette: a recorded answer reaches the client through the scope's
// fetch and the clock's barrier knows it was taken (and gives every request that ended its turns before the next
// frame, as the recording does); a request the recording's client gave up on (aborted: the call
// ended with it in flight, or its timeout passed) is never answered: a client that gives up too is let go, one that
// does not is told where the recording gave up, with a status no client retries (408), as a timeout is not retried.
// One whose connection failed in the recording fails the same way now, so the harness retries it as it did then.
import OpenAI from 'openai'
import { afterEach, describe, expect, test } from 'vitest'
import { runModelCall } from '../models/call-runner.ts'
import { testCassette } from './cassette-header.test-helpers.ts'
import type { LoadedCassette } from './files.ts'
import { type ReplayServer, startReplayServer } from './replay-server.ts'
import type { HttpExchange } from './schema.ts'

const REDACTION = { extraNames: [], secretValues: [] }
const URL_ = 'https://api.openai.com/v1/responses'

function exchange(seq: number, question: string, fields: Partial<HttpExchange> = {}): HttpExchange {
  return {
    seq,
    answered_seq: seq + 10,
    method: 'POST',
    path: '/v1/responses',
    request: { content_type: 'application/json', json: { question } },
    status: 200,
    response: { content_type: 'application/json', json: { answer: `to ${question}` } },
    duration_ms: 5,
    ...fields,
  }
}

const APPEND = 'session.input_audio.append'

const aborted = (seq: number, question: string) =>
  exchange(seq, question, { aborted: true, status: 0, response: { content_type: null } })

function cassetteWith(http: HttpExchange[]): LoadedCassette {
  return {
    folder: '/nowhere',
    files: new Map(),
    cassette: testCassette({ phase: 'run' }, { http }),
  }
}

let server: ReplayServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

const ask = (question: string, signal?: AbortSignal) =>
  (server as ReplayServer).scope().fetch(URL_, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question }),
    ...(signal === undefined ? {} : { signal }),
  })

describe('the replay server over HTTP', () => {
  test('a recorded answer reaches its client, and the barrier has nothing left to wait for', async () => {
    server = await startReplayServer(cassetteWith([exchange(1, 'drain?')]), {
      match: 'strict',
      redaction: REDACTION,
    })
    const response = await ask('drain?')
    expect(await response.json()).toEqual({ answer: 'to drain?' })
    await server.scope().clock?.synchronized()
    expect(server.divergences.count).toBe(0)
  })

  test('a request the recording gave up on while audio went on stays unanswered, and its client is let go', async () => {
    // The recording's client gave up (seq 11) only after an audio frame (seq 5) went out: it is in flight until then.
    const loaded = cassetteWith([aborted(1, 'first?')])
    loaded.cassette.sessions = [
      { label: 'assistant', frames: [{ seq: 5, direction: 'sent', at_ms: 20, event: { type: APPEND } }] },
    ]
    server = await startReplayServer(loaded, { match: 'strict', redaction: REDACTION })
    const abort = new AbortController()
    const first = ask('first?', abort.signal)
    let settled = false
    void first.catch(() => {}).finally(() => (settled = true))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(settled).toBe(false)
    abort.abort()
    await expect(first).rejects.toThrow(/abort/i)
    // Nothing was answered, but the request ended on its client: what the give-up set going (here, something two
    // turns later) has the two turns before the next frame that the recording gave it (request-end-turns.ts).
    let reacted = false
    setImmediate(() => setImmediate(() => (reacted = true)))
    await server.scope().clock?.synchronized()
    expect(reacted).toBe(true)
    expect(server.divergences.count).toBe(0)
  })

  test('one the recording gave up on at once: a client that still waits is told so there, with a 408', async () => {
    server = await startReplayServer(cassetteWith([aborted(1, 'second?')]), {
      match: 'strict',
      redaction: REDACTION,
    })
    const response = await ask('second?')
    expect(response.status).toBe(408)
    expect(await response.json()).toMatchObject({ error: { type: 'replay_request_given_up' } })
    await server.scope().clock?.synchronized()
    expect(server.divergences.count).toBe(0)
  })

  test('one whose connection failed is failed the same way, and the harness retries it as the recording did', async () => {
    // Recorded under load: the observer's first attempt lost its connection, the retry (same request) was answered.
    const request = { model: 'gpt-test', input: 'drain?' }
    const answer = { id: 'resp_1', object: 'response', output: [] }
    const recorded = (seq: number, fields: Partial<HttpExchange>) =>
      exchange(seq, '', { ...fields, request: { content_type: 'application/json', json: request } })
    server = await startReplayServer(
      cassetteWith([
        recorded(1, { aborted: true, connection_failed: true, status: 0, response: { content_type: null } }),
        recorded(20, { response: { content_type: 'application/json', json: answer } }),
      ]),
      { match: 'strict', redaction: REDACTION },
    )
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: 'https://api.openai.com/v1',
      fetch: server.scope().fetch,
    })
    const call = await runModelCall(
      {
        client,
        model: 'gpt-test',
        source: 'completion_observer',
        purpose: 'completion_observer/should_drain',
        retry: { sleep: async () => {} },
      },
      (options) => client.responses.create(request, options),
    )
    expect(call).toMatchObject({ attempts: 2, value: { id: 'resp_1' } })
    await server.scope().clock?.synchronized()
    expect(server.divergences.count).toBe(0)
    expect(server.divergences.first).toBeNull()
  })
})
