import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundledCrawlScenario } from '../phases/single-turn/test-support.ts'
import { startOfflineLiveServer } from '../testing/live-server/index.ts'
import { responsesRoute } from '../testing/responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../testing/responses-server/server.ts'
import { executeLive, type LiveStandIns, liveCrawlSettings, SENTINEL_KEY } from './cassette.test-helpers.ts'
import { readCassette } from './files.ts'
import { CASSETTE_FILE, CASSETTE_VERSION } from './schema.ts'

const SCENARIO = 'crawl_001_booking_complete_request'
let standIns: LiveStandIns
let responses: ResponsesServer
let cassettes = ''

beforeAll(async () => {
  const live = await startOfflineLiveServer()
  // The backend's Responses stand-in quotes the key back (as a misbehaving gateway would): it must not be kept.
  responses = await startResponsesServer({
    routes: {
      'POST /v1/responses': responsesRoute({
        respond: () => ({ output: [{ type: 'message', text: `Booked. (your key was ${SENTINEL_KEY})` }] }),
      }),
    },
  })
  standIns = { live, responsesBaseURL: responses.baseURL }
  cassettes = await mkdtemp(join(tmpdir(), 'live-evals-cassettes-'))
})

afterAll(async () => {
  await Promise.all([standIns?.live.close(), responses?.close()])
  if (cassettes !== '') await rm(cassettes, { recursive: true, force: true })
})

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

describe('recording a live execution', () => {
  test('writes one cassette per scenario and architecture: every frame, the audio as PCM, every HTTP exchange', async () => {
    const scenario = await bundledCrawlScenario(SCENARIO)
    // The voice is no secret, but naming it in GPT_LIVE_EVALS_REDACT_FIELDS shows the names apply to frames.
    const env = {
      OPENAI_API_KEY: SENTINEL_KEY,
      LIVE_EVALS_MODE: 'live',
      LIVE_EVALS_RECORD: '1',
      GPT_LIVE_EVALS_REDACT_FIELDS: 'voice',
    }
    const settings = await liveCrawlSettings(standIns, cassettes, env)
    for (const architecture of ['responses', 'client'] as const) {
      const execution = await executeLive(scenario, settings, architecture, standIns, { register: true })
      expect(execution.failure).toBeNull()
      const block = execution.row.observability?.live_evals as { cassette?: { mode: string; id: string } }
      expect(block.cassette).toMatchObject({ mode: 'recorded', id: `${SCENARIO}__${architecture}` })
    }
    expect((await readdir(cassettes)).sort()).toEqual([`${SCENARIO}__client`, `${SCENARIO}__responses`])

    const { cassette, files } = await readCassette(cassettes, `${SCENARIO}__client`)
    expect(cassette.header).toMatchObject({
      cassette_version: CASSETTE_VERSION,
      phase: 'crawl',
      architecture: 'client',
    })
    expect(cassette.header.scenario_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(cassette.header.assistant_hash).toMatch(/^[0-9a-f]{64}$/)
    const [assistant] = cassette.sessions
    const types = assistant?.frames.map((frame) => `${frame.direction} ${String(frame.event.type)}`) ?? []
    expect(types[0]).toBe('sent session.start')
    const start = assistant?.frames[0]?.event as { session?: { audio?: { output?: { voice?: unknown } } } }
    expect(start.session?.audio?.output?.voice).toBe('[redacted]')
    expect(types).toContain('received session.started')
    expect(types).toContain('received session.output_audio.delta')
    expect(types.at(-1)).toBe('received session.closed')
    // Audio left the JSON: each append names its bytes in the PCM file instead.
    const appends =
      assistant?.frames.filter((frame) => frame.event.type === 'session.input_audio.append') ?? []
    expect(appends.length).toBeGreaterThan(10)
    for (const frame of appends) {
      expect(frame.event.audio).toBeUndefined()
      expect(frame.audio?.file).toBe('assistant.sent.pcm')
    }
    const sentBytes = appends.reduce((total, frame) => total + (frame.audio?.bytes ?? 0), 0)
    expect(files.get('assistant.sent.pcm')?.byteLength).toBe(sentBytes)
    // The client backend's request and answer, with status and body.
    expect(cassette.http.length).toBeGreaterThan(0)
    expect(cassette.http[0]).toMatchObject({ method: 'POST', path: '/v1/responses', status: 200 })
    expect(JSON.stringify(cassette.http[0]?.request.json)).toContain('instructions')
    expect(cassette.tool_executions).not.toBeNull()
  }, 60_000)

  test('a key-shaped sentinel appears in no byte of any cassette; folders are 0700 and files 0600', async () => {
    const all = await filesUnder(cassettes)
    expect(all.length).toBeGreaterThan(4)
    for (const file of all) {
      const bytes = await readFile(file)
      expect(bytes.includes(Buffer.from(SENTINEL_KEY)), file).toBe(false)
      expect(bytes.includes(Buffer.from('sk-test-CASSETTE')), file).toBe(false)
      expect((await stat(file)).mode & 0o777, file).toBe(0o600)
    }
    for (const folder of await readdir(cassettes)) {
      expect((await stat(join(cassettes, folder))).mode & 0o777).toBe(0o700)
      const text = await readFile(join(cassettes, folder, CASSETTE_FILE), 'utf8')
      expect(text).not.toMatch(/authorization/i)
    }
    // The stand-in did quote the key back: it was scrubbed, not absent.
    const { cassette } = await readCassette(cassettes, `${SCENARIO}__client`)
    expect(JSON.stringify(cassette.http)).toContain('[redacted]')
  })
})
