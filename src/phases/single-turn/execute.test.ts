import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { offlineClientController } from '../../assistants/assistant-session.ts'
import { ResultItemSchema } from '../../reporting/result-schema.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { executeSingleTurnScenario } from './execute.ts'
import { bundledCrawlScenario, freshRunDirectory, offlineCrawlSettings, offlineEnv } from './test-support.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

const BOOKING = 'crawl_001_booking_complete_request'

describe('executeSingleTurnScenario offline (responses delegation)', () => {
  it('passes a booking scenario, writes private artifacts and a valid row', async () => {
    const settings = await offlineCrawlSettings()
    const runDirectory = await freshRunDirectory()
    const scenario = await bundledCrawlScenario(BOOKING)
    const execution = await executeSingleTurnScenario(
      scenario,
      offlineEnv(settings, server, runDirectory, 'responses'),
    )
    expect(execution.failure).toBeNull()
    expect(execution.row.status, JSON.stringify(execution.grade?.assessment)).toBe('passed')
    expect(ResultItemSchema.parse(execution.row)).toEqual(execution.row)
    expect(execution.observation?.termination_reason).toBe('response_completed')
    expect(execution.observation?.tool_executions.map((call) => call.name)).toEqual(['create_reservation'])
    for (const path of Object.values(execution.artifacts)) {
      expect(path).not.toBeNull()
      expect((await stat(path as string)).mode & 0o777).toBe(0o600)
    }
    const events = (await readFile(join(runDirectory, `events/${BOOKING}.jsonl`), 'utf8'))
      .trimEnd()
      .split('\n')
    const records = events.map((line) => JSON.parse(line))
    expect(records[0].type).toBe('session.start')
    expect(records[0].event.session.model).toBe('gpt-live-1')
    expect(records.map((record) => record.event_index)).toEqual(records.map((_, index) => index + 1))
    expect(records.map((record) => record.type)).toContain('evaluation.outcome.assessed')
    expect(events.join('\n')).not.toMatch(/"(audio|delta)":"[A-Za-z0-9+/]{200,}/)
  })

  it('produces identical artifact bytes for the same input twice', async () => {
    const settings = await offlineCrawlSettings()
    const scenario = await bundledCrawlScenario(BOOKING)
    const runs = []
    for (let i = 0; i < 2; i++) {
      const runDirectory = await freshRunDirectory()
      const execution = await executeSingleTurnScenario(
        scenario,
        offlineEnv(settings, server, runDirectory, 'responses'),
      )
      runs.push(execution)
    }
    const [first, second] = runs
    for (const key of [
      'input_audio',
      'output_audio',
      'conversation_audio',
      'conversation_transcript',
    ] as const) {
      const a = await readFile(first?.artifacts[key] as string)
      const b = await readFile(second?.artifacts[key] as string)
      expect(a.equals(b), key).toBe(true)
    }
    // The trace too, apart from what the offline server stamps from the wall clock (resource timestamps) and
    // the session label (both runs share one server, so the second registration gets the next token).
    const comparableTrace = async (path: string | null | undefined) =>
      (await readFile(path as string, 'utf8'))
        .replace(/"(created_at|expires_at)":\d+/g, '"$1":0')
        .replace(/live_offline_[0-9a-f]+/g, 'live_offline_S')
        .replace(/"event_[0-9a-f]+_/g, '"event_S_')
    expect(await comparableTrace(second?.artifacts.events)).toBe(
      await comparableTrace(first?.artifacts.events),
    )
    expect(first?.row).toEqual(second?.row)
  })
})

describe('executeSingleTurnScenario offline (client delegation)', () => {
  it('passes the booking scenario with the in-process application controller', async () => {
    const settings = await offlineCrawlSettings()
    const scenario = await bundledCrawlScenario(BOOKING)
    const execution = await executeSingleTurnScenario(
      scenario,
      offlineEnv(settings, server, await freshRunDirectory(), 'client', {
        clientController: offlineClientController,
      }),
    )
    expect(execution.failure).toBeNull()
    expect(execution.row.status, JSON.stringify(execution.grade?.assessment)).toBe('passed')
    expect(execution.observation?.tool_executions.map((call) => call.name)).toEqual(['create_reservation'])
    expect(ResultItemSchema.parse(execution.row)).toEqual(execution.row)
  })
})
