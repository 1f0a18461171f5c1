// End to end offline: a bundled RUN conversation through the driver, the RUN grade and the results.json row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gradeRun } from '../../grading/run/run-outcome.ts'
import { ResultItemSchema } from '../../reporting/result-schema.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { ARCHITECTURES, bundledRunScenario, playBundled } from './conversation.test-helpers.ts'
import { observeRunConversation } from './observe.ts'
import { buildRunRow } from './row.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

async function rowOf(id: string, architecture: keyof typeof ARCHITECTURES) {
  const scenario = await bundledRunScenario(id)
  const conversation = await playBundled(server, scenario, architecture)
  const { observation, interaction } = observeRunConversation(conversation)
  const grade = gradeRun(observation, scenario.expected)
  return buildRunRow(scenario, conversation, grade, interaction)
}

describe.each(Object.keys(ARCHITECTURES) as (keyof typeof ARCHITECTURES)[])(
  'RUN rows offline (%s)',
  (architecture) => {
    it('a verified booking is a passed row with RUN observability and valid simulation', async () => {
      const row = await rowOf('run_001_booking_complete', architecture)
      expect(ResultItemSchema.parse(row)).toEqual(row)
      expect(row.status).toBe('passed')
      expect(row.error).toBeNull()
      expect(row.metrics.task).toMatchObject({
        task_completed: true,
        tool_accuracy: 1,
        tool_calls: { actual: 1, expected: 1 },
        delegations: { actual: 1, expected: 1 },
        semantic_quality: { score: null, dimensions: {} },
      })
      expect(row.metrics.audio.response_rate).toBe(1)
      expect(row.metrics.consumption.frontend.audio_duration_ms).toBeGreaterThan(0)
      expect(row.observability).toMatchObject({
        interaction: {
          audio_source: 'dual_gpt_live',
          caller_mode: 'offline_fixture',
          caller_actions: { OPENING: 1, STOP: 1 },
        },
        completion: {
          termination_reason: 'response_completed',
          policy: 'caller_finish_tool_or_verified_outcome',
          procedure_is_diagnostic: true,
        },
      })
      expect(row.validity).toMatchObject({ status: 'valid', reason: null })
    }, 60_000)

    it('a refused cancellation of someone else’s booking passes with the state unchanged and no prohibited call', async () => {
      const row = await rowOf('run_008_cancel_unauthorized', architecture)
      expect(row.status).toBe('passed')
      expect(row.metrics.task.tool_accuracy).toBe(1)
      expect(row.assessment?.checks.find((check) => check.id === 'authorized_actions')?.status).toBe('passed')
    }, 60_000)
  },
)
