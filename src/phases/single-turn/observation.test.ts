// A single-turn execution records when each tool execution completed on the session's media clock (the same clock
// as the delegations and the transcript), so the CRAWL/WALK timeline's tools lane shows them and the grounded
// response check can order the answer after the tool. Real offline runs in both architectures.
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeScenarioTimelineImage } from '../../report/write-report.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { STEP_MS } from './collect.ts'
import { ToolCompletionTimes } from './observation.ts'
import {
  bundledCrawlScenario,
  executeScenario,
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

interface Details {
  delegations: { id: string; startMs: number; settledMs: number | null }[]
  tool_executions: { name: string; status: string; completed_at_ms: number | null }[]
}

describe('single-turn tool completion times', () => {
  it.each(['responses', 'client'] as const)(
    '%s: the booking tool completed inside its delegation, and the timeline image marks it in the tools lane',
    async (architecture) => {
      const runDirectory = await freshRunDirectory()
      const settings = await offlineCrawlSettings()
      const scenario = await bundledCrawlScenario('crawl_001_booking_complete_request')
      const execution = await executeScenario(
        scenario,
        offlineEnv(settings, server, runDirectory, architecture),
      )
      expect(execution.row.status).toBe('passed')
      const [tool] = execution.observation?.tool_executions ?? []
      expect(tool?.name).toBe('create_reservation')
      const at = tool?.completed_at_ms
      expect(typeof at).toBe('number')
      // Noticed at the end of the clock step it happened in: after its delegation began, by the time it settled.
      expect((at as number) % STEP_MS).toBe(0)
      const details = JSON.parse(await readFile(execution.artifacts.details as string, 'utf8')) as Details
      expect(details.tool_executions.map((call) => call.completed_at_ms)).toEqual([at])
      const [delegation] = details.delegations
      expect(delegation?.startMs).toBeLessThanOrEqual(at as number)
      expect(at as number).toBeLessThanOrEqual(delegation?.settledMs as number)
      const assistantAnswer = execution.observation?.transcript.find(
        (line) => line.role === 'assistant' && line.start_ms !== null && line.start_ms >= (at as number),
      )
      expect(assistantAnswer, 'the answer after the tool').toBeDefined()

      const image = await writeScenarioTimelineImage(runDirectory, execution.row)
      const svg = await readFile(image as string, 'utf8')
      expect(svg).toContain(`<title>tool create_reservation completed at ${at} ms</title>`)
    },
  )

  it('gives each execution the first time it was seen, and null to one never seen during collection', () => {
    const times = new ToolCompletionTimes()
    times.notice(0, 200)
    times.notice(1, 400)
    times.notice(1, 600)
    times.notice(3, 800)
    expect([0, 1, 2, 3].map((index) => times.at(index))).toEqual([400, 800, 800, null])
  })
})
