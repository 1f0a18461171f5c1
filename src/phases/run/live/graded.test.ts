// The live driver's result grades with the RUN phase's own observe stage and grader, like an offline call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gradeRun } from '../../../grading/run/run-outcome.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../../testing/live-server/index.ts'
import { bundledRunScenario } from '../conversation.test-helpers.ts'
import type { OfflineConversation } from '../conversation.ts'
import { observeRunConversation } from '../observe.ts'
import { runLiveConversation } from './conversation.ts'
import { offlineLiveCall } from './live-conversation.test-helpers.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

describe('a live call through the RUN observe stage', () => {
  it('observes and grades like an offline call: the booking is completed and the requests answered', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const conversation = await runLiveConversation(offlineLiveCall(server, scenario).options)
    // observe.ts types its input as the offline driver's result; the live one differs only in the wider
    // completion_policy and termination_reason unions, which observe.ts reads as plain strings.
    const { observation, interaction } = observeRunConversation(
      conversation as unknown as OfflineConversation,
    )
    const grade = gradeRun(observation, scenario.expected)
    expect(grade.tools.matched_tool_call_count).toBe(1)
    expect(grade.outcome_state_satisfied).toBe(true)
    expect(grade.task_completed).toBe(true)
    expect(interaction.metrics.response_opportunities).toMatchObject({ response_count: 3 })
    expect(interaction.metrics.interruption_rate).toBe(0)
  }, 60_000)
})
