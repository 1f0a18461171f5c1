// Live mode's first contact, in a child Vitest of the fixture project: a GPT-Live endpoint on a closed port, or a
// server that refuses every request and WebSocket upgrade with 401, stops the run before the first scenario with
// one message naming the URL, what answered and the variable to change; no scenario runs, no run folder is left.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { unusedLoopbackPort } from '../testing/unused-port.test-helpers.ts'
import {
  type ChildRun,
  FIXTURE_CONFIG,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from './child-vitest.test-helpers.ts'

const API_KEY = 'sk-test-PREFLIGHT-key-0b9e'

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** Refuses everything the way the API refuses a wrong key: HTTP 401 with an OpenAI error body, upgrades too. */
function refusingServer(): Server {
  const body = JSON.stringify({
    error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
  })
  const server = createServer((_request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' }).end(body)
  })
  server.on('upgrade', (_request, socket) => {
    socket.end(
      `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    )
  })
  return server
}

async function liveRun(baseURL: string): Promise<{ run: ChildRun; runFolders: string[] }> {
  const space = await scratch()
  const env = {
    ...space.env,
    LIVE_EVALS_MODE: 'live',
    OPENAI_API_KEY: API_KEY,
    OPENAI_LIVE_ENDPOINT: baseURL,
    OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '1',
    OPENAI_BASE_URL: baseURL,
  }
  const run = await runVitest(['run', '--config', FIXTURE_CONFIG], env)
  const runFolders = await runDirectoriesIn(space.env.LIVE_EVALS_RESULTS_DIR as string).catch(() => [])
  return { run, runFolders }
}

/** What every stopped run shows: one startup failure, nothing run, no test line, the key never printed. */
function expectStoppedBeforeScenarios(result: { run: ChildRun; runFolders: string[] }): void {
  const { run, runFolders } = result
  expect(run.code).toBe(1)
  expect(run.output.match(/live-evals: the CRAWL run cannot start; nothing was run/g)).toHaveLength(1)
  expect(run.output).not.toMatch(/Tests\s+\d+ (passed|failed)/)
  expect(run.output).not.toContain('fixture_')
  expect(run.output).not.toContain(API_KEY)
  expect(runFolders).toEqual([])
}

describe('a live run whose endpoints do not answer stops before the first scenario', () => {
  let refusing: Server
  let refusingPort = 0
  beforeAll(async () => {
    refusing = refusingServer()
    refusingPort = await listen(refusing)
  })
  afterAll(async () => {
    refusing.closeAllConnections()
    await new Promise<void>((resolve) => refusing.close(() => resolve()))
  })

  test(
    'a closed port: one message naming each URL and the variable that sets it',
    async () => {
      const port = await unusedLoopbackPort()
      const started = performance.now()
      const result = await liveRun(`http://127.0.0.1:${port}/v1`)
      console.info(
        `closed port: stopped after ${Math.round(performance.now() - started)} ms (child Vitest start included)`,
      )
      expectStoppedBeforeScenarios(result)
      const output = result.run.output
      expect(output).toContain(
        `live preflight: GPT-Live at ws://127.0.0.1:${port}/v1/live/sessions answered connection refused (ECONNREFUSED); nothing usable answers there: check OPENAI_LIVE_ENDPOINT`,
      )
      expect(output).toContain(
        `live preflight: text-to-speech at http://127.0.0.1:${port}/v1/models/gpt-4o-mini-tts answered connection refused (ECONNREFUSED); nothing usable answers there: check OPENAI_BASE_URL`,
      )
    },
    SPAWN_TIMEOUT_MS,
  )

  test(
    'a 401 stub: one message naming the URL, the status and the key variable',
    async () => {
      const started = performance.now()
      const result = await liveRun(`http://127.0.0.1:${refusingPort}/v1`)
      console.info(
        `401 stub: stopped after ${Math.round(performance.now() - started)} ms (child Vitest start included)`,
      )
      expectStoppedBeforeScenarios(result)
      const output = result.run.output
      expect(output).toContain(
        `live preflight: GPT-Live at ws://127.0.0.1:${refusingPort}/v1/live/sessions answered HTTP 401; the key was refused: check OPENAI_API_KEY`,
      )
      expect(output).toContain(
        `live preflight: text-to-speech at http://127.0.0.1:${refusingPort}/v1/models/gpt-4o-mini-tts answered HTTP 401 invalid_api_key; the key was refused: check OPENAI_API_KEY`,
      )
    },
    SPAWN_TIMEOUT_MS,
  )
})
