// The virtual clock's streaming and synchronization rules, observed through the sanitized trace of real
// offline executions: what was appended, when, and how many round trips each step cost.
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROUND_TRIP_COMMAND } from '../../live/round-trip.ts'
import type { TraceRecord } from '../../observability/trace.ts'
import {
  DEFAULT_ACKNOWLEDGEMENT,
  type OfflineLiveServer,
  startOfflineLiveServer,
} from '../../testing/live-server/index.ts'
import { STEP_MS } from './collect.ts'
import {
  bundledCrawlScenario,
  executeScenario as executeSingleTurnScenario,
  freshRunDirectory,
  offlineCrawlSettings,
  offlineEnv,
} from './test-support.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

const BYTES_PER_MS = 48 // PCM16 mono at 24 kHz

async function tracedRun(scenarioId: string): Promise<TraceRecord[]> {
  const settings = await offlineCrawlSettings()
  const execution = await executeSingleTurnScenario(
    await bundledCrawlScenario(scenarioId),
    offlineEnv(settings, server, await freshRunDirectory(), 'responses'),
  )
  expect(execution.row.status, JSON.stringify(execution.failure)).toBe('passed')
  const events = execution.artifacts.events
  if (events === null) throw new Error(`${scenarioId}: no events artifact`)
  return (await readFile(events, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as TraceRecord)
}

const ofType = (records: TraceRecord[], type: string) => records.filter((record) => record.type === type)

describe('virtual-clock collection', () => {
  it('sends each step as one append of STEP_MS of audio, back to back on the session clock', async () => {
    const records = await tracedRun('crawl_020_hours')
    const appends = ofType(records, 'session.input_audio.append')
    expect(appends.length).toBeGreaterThan(10)
    expect(appends.map((record) => record.event.audio_bytes)).toEqual(
      appends.map(() => STEP_MS * BYTES_PER_MS),
    )
    expect(appends.map((record) => record.at_ms)).toEqual(appends.map((_, index) => index * STEP_MS))
  })

  it('takes one round trip per step when only audio, captions and usage arrived', async () => {
    // The hours answer is spoken without delegating: nothing a controller reacts to ever arrives.
    const records = await tracedRun('crawl_020_hours')
    expect(ofType(records, 'session.output_audio.delta').length).toBeGreaterThan(0)
    expect(ofType(records, 'session.delegation.created')).toHaveLength(0)
    const appends = ofType(records, 'session.input_audio.append')
    expect(ofType(records, ROUND_TRIP_COMMAND)).toHaveLength(appends.length)
  })

  it('keeps synchronizing while a delegation makes the controller react', async () => {
    const records = await tracedRun('crawl_001_booking_complete_request')
    expect(ofType(records, 'session.delegation.created')).toHaveLength(1)
    const appends = ofType(records, 'session.input_audio.append')
    const markers = ofType(records, ROUND_TRIP_COMMAND)
    expect(markers.length).toBeGreaterThan(appends.length)
    // Each extra round happens at the step where the delegation's events arrived, not later.
    const delegatedAt = ofType(records, 'session.delegation.created')[0]?.at_ms
    const extraRoundSteps = new Set(
      markers
        .map((marker) => marker.at_ms)
        .filter((at, index, all) => index > 0 && all[index - 1] === at)
        .map((at) => at),
    )
    expect(extraRoundSteps.has(delegatedAt ?? -1)).toBe(true)
  })
})

describe('the acknowledgement the service speaks after a delegation', () => {
  it.each(['responses', 'client'] as const)(
    '%s: is heard, but is neither the answer nor post-tool text',
    async (architecture) => {
      const settings = await offlineCrawlSettings()
      const execution = await executeSingleTurnScenario(
        await bundledCrawlScenario('crawl_001_booking_complete_request'),
        offlineEnv(settings, server, await freshRunDirectory(), architecture),
      )
      expect(execution.row.status, JSON.stringify(execution.failure)).toBe('passed')
      const observation = execution.observation
      if (observation === null) throw new Error('no observation')
      const assistantLines = observation.transcript.filter((line) => line.role === 'assistant')
      expect(assistantLines[0]?.text).toBe(DEFAULT_ACKNOWLEDGEMENT)
      expect(observation.post_tool_assistant_text).not.toContain(DEFAULT_ACKNOWLEDGEMENT)
      expect(observation.post_tool_assistant_text).toContain('Your reservation for Alvarez')
      expect(observation.termination_reason).toBe('response_completed')
    },
  )
})
