// The live RUN leak boundary, with sentinels: nothing evaluator-only (the expected answer, criteria, expected
// state, golden tools, procedure) reaches either session, neither in what was sent to it (its session.start,
// every later frame) nor in what it heard or said; the completion observer, which is evaluator-owned, gets the
// expected state (which proves the sentinels are visible where they are allowed) but never the expected answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerEvent } from '../../../live/index.ts'
import { type ScriptedOpenAi, startScriptedOpenAi } from '../../../models/models.test-helpers.ts'
import type { Scenario } from '../../../scenarios/scenario.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../../testing/live-server/index.ts'
import { bundledRunScenario } from '../conversation.test-helpers.ts'
import { runLiveConversation } from './conversation.ts'
import { answerObserver, offlineLiveCall } from './live-conversation.test-helpers.ts'

const SENTINELS = {
  answer: 'SENTINEL_EXPECTED_ANSWER_R7',
  criterion: 'SENTINEL_CRITERION_Q2',
  state: 'SENTINEL_EXPECTED_STATE_K9',
  tool: 'SENTINEL_GOLDEN_TOOL_M4',
  toolArgument: 'SENTINEL_GOLDEN_ARGUMENT_P1',
  procedure: 'SENTINEL_PROCEDURE_STEP_X5',
}

function withSentinels(scenario: Scenario): Scenario {
  const { expected } = scenario
  const procedure = expected.procedure
  return {
    ...scenario,
    expected: {
      ...expected,
      answer: SENTINELS.answer,
      criteria: [...expected.criteria, SENTINELS.criterion],
      state: { ...expected.state, confirmation_note: SENTINELS.state },
      tools: {
        ...expected.tools,
        required: [
          ...expected.tools.required,
          { name: SENTINELS.tool, arguments: { code: SENTINELS.toolArgument }, status: 'completed' },
        ],
      },
      procedure:
        procedure === null
          ? null
          : {
              ...procedure,
              id: SENTINELS.procedure,
              steps: procedure.steps.map((step) => ({ ...step, id: `${step.id}_${SENTINELS.procedure}` })),
            },
    },
  }
}

let server: OfflineLiveServer
let openai: ScriptedOpenAi
beforeAll(async () => {
  server = await startOfflineLiveServer()
  openai = await startScriptedOpenAi()
})
afterAll(async () => {
  await server.close()
  await openai.server.close()
})

describe('live RUN leak boundary', () => {
  it('no evaluator-only sentinel reaches the caller or the assistant; the observer sees the state, not the answer', async () => {
    const scenario = withSentinels(await bundledRunScenario('run_001_booking_complete'))
    expect(scenario.expected.procedure).not.toBeNull()
    answerObserver(openai.server, () => ({ should_drain: true, outcome: 'resolved', reason: 'Done.' }))
    const { options, bridges } = offlineLiveCall(server, scenario, {
      observer: { client: openai.client, model: 'gpt-5.6-terra', retry: { maxAttempts: 1 } },
      rules: { maxDurationMs: 40_000 },
    })
    const sent: Record<'assistant' | 'caller', unknown[]> = { assistant: [], caller: [] }
    const started = options.hooks?.sessionsStarted
    options.hooks = {
      ...options.hooks,
      sessionsStarted: (participants) => {
        started?.(participants)
        sent.assistant.push(participants.assistant.session.startSent?.event)
        sent.caller.push(participants.caller.startSent?.event)
        participants.assistant.session.onSent(({ event }) => sent.assistant.push(event))
        participants.caller.onSent(({ event }) => sent.caller.push(event))
      },
    }
    const conversation = await runLiveConversation(options)
    // The call really happened: both sides spoke and the assistant booked.
    expect(conversation.plan.length).toBeGreaterThanOrEqual(3)
    expect(conversation.call.assistant.tools.executions().length).toBeGreaterThan(0)
    const received = (events: readonly { event: ServerEvent }[]) =>
      JSON.stringify(events.map(({ event }) => event))
    const seenBySessions = [
      JSON.stringify(sent.assistant),
      JSON.stringify(sent.caller),
      received(conversation.call.assistant.session.log.events),
      received(conversation.caller.session.log.events),
      JSON.stringify(bridges.toAssistant.heard),
      JSON.stringify(bridges.toCaller.heard),
    ]
    expect(sent.caller.length).toBeGreaterThan(100)
    for (const text of seenBySessions) {
      for (const sentinel of Object.values(SENTINELS)) expect(text).not.toContain(sentinel)
    }
    // The observer is evaluator-owned: it reads the expected state, never the expected answer or the criteria.
    const observerText = JSON.stringify(openai.server.requestsTo('POST', '/v1/responses').map((r) => r.body))
    expect(observerText).toContain(SENTINELS.state)
    expect(observerText).not.toContain(SENTINELS.answer)
    expect(observerText).not.toContain(SENTINELS.criterion)
    // The stated state cannot be verified (the sentinel is not in the application), so "resolved" is downgraded.
    expect(conversation.observer.assessments.every((record) => record.result !== 'signal')).toBe(true)
    expect(conversation.termination_reason).toBe('duration_limit')
  }, 60_000)
})
