// The completion observer in a whole live call: both sessions on the offline GPT-Live server, the observer a
// structured Responses call to a real local HTTP server answering the openai SDK.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type ScriptedOpenAi, startScriptedOpenAi } from '../../../models/models.test-helpers.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../../testing/live-server/index.ts'
import { bundledRunScenario } from '../conversation.test-helpers.ts'
import { runLiveConversation } from './conversation.ts'
import { answerObserver, observerInputOf, offlineLiveCall } from './live-conversation.test-helpers.ts'
import type { ObserverCallSettings } from './observer-call.ts'

let server: OfflineLiveServer
let openai: ScriptedOpenAi
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})
beforeEach(async () => {
  openai = await startScriptedOpenAi()
})
afterEach(async () => {
  await openai.server.close()
})

function observerSettings(): ObserverCallSettings {
  return { client: openai.client, model: 'gpt-5.6-terra', timeoutMs: 8_000, retry: { maxAttempts: 1 } }
}

/** The observer answers `unresolved` until the caller said `farewell`, then `resolved`. */
function answerResolvedAfter(farewell: string) {
  answerObserver(openai.server, (input) =>
    input.conversation.some((turn) => turn.role === 'user' && turn.text.includes(farewell))
      ? { should_drain: true, outcome: 'resolved', reason: 'Booked and said goodbye.' }
      : { should_drain: false, outcome: 'unresolved', reason: 'Still talking.' },
  )
}

const observerInputs = () => openai.server.requestsTo('POST', '/v1/responses').map(observerInputOf)

describe('the completion observer in a live call', () => {
  it('resolves once the caller said goodbye; the drain then ends the call with response_completed', async () => {
    answerResolvedAfter('Goodbye!')
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, { observer: observerSettings() })
    const conversation = await runLiveConversation(options)
    expect(conversation.termination_reason).toBe('response_completed')
    expect(conversation.completion_policy).toBe('semantic_conversation_observer')
    const results = conversation.observer.assessments.map((record) => record.result)
    expect(results.at(-1)).toBe('signal')
    expect(results.filter((result) => result === 'signal')).toHaveLength(1)
    // With an observer no utterance is a STOP (a completion decision never relabels the farewell).
    expect(conversation.caller_actions).toEqual({ OPENING: 1, SPEAK: 3 })
    expect(conversation.observer.usage.every((event) => event.source === 'completion_observer')).toBe(true)
    const inputs = observerInputs()
    // Never before two caller utterances and an assistant turn; assessments at least 500 ms apart.
    for (const input of inputs) {
      const roles = (input.conversation as { role: string }[]).map((turn) => turn.role)
      expect(roles.filter((role) => role === 'user').length).toBeGreaterThanOrEqual(2)
      expect(roles).toContain('assistant')
    }
    const starts = conversation.observer.assessments.map((record) => record.started_ms)
    for (let index = 1; index < starts.length; index++) {
      expect((starts[index] as number) - (starts[index - 1] as number)).toBeGreaterThanOrEqual(500)
    }
    // Exactly §6's inputs; never the expected answer.
    expect(Object.keys(inputs[0] ?? {}).sort()).toEqual(
      [
        'assistant_work_pending',
        'caller_expectations',
        'caller_goal',
        'completed_application_tools',
        'conversation',
        'delegation_forbidden',
        'expected_application_state',
        'expected_state_verified',
        'initial_application_state',
        'observed_application_state',
        'required_caller_objectives',
      ].sort(),
    )
    const sentText = JSON.stringify(openai.server.requestsTo('POST', '/v1/responses').map((r) => r.body))
    expect(sentText).not.toContain(scenario.expected.answer)
    const body = openai.server.requestsTo('POST', '/v1/responses')[0]?.body as Record<string, unknown>
    expect(body).toMatchObject({ store: false, reasoning: { effort: 'none' }, text: { verbosity: 'low' } })
    expect(inputs.at(-1)).toMatchObject({ expected_state_verified: true, assistant_work_pending: false })
  }, 60_000)

  it('new caller speech after the signal revokes the drain; the call ends on the next signal', async () => {
    answerResolvedAfter('Goodbye!')
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, {
      observer: observerSettings(),
      callerLines: [
        'Great, that all sounds right.',
        'Thanks so much. Goodbye!',
        'Oh, one more thing: is there parking for guests?',
      ],
    })
    const conversation = await runLiveConversation(options)
    expect(conversation.drain_revocations.map((revocation) => revocation.reason)).toContain('caller_speech')
    const revokedAt = conversation.drain_revocations.find(
      (revocation) => revocation.reason === 'caller_speech',
    )
    const parking = conversation.plan.find((utterance) => utterance.text.startsWith('Oh, one more thing'))
    expect(revokedAt?.atMs).toBe(parking?.startMs)
    expect(conversation.termination_reason).toBe('response_completed')
    // The call went on past the question: the assistant answered it before the call ended.
    const lines = conversation.call.timeline.lines()
    expect(lines.at(-1)?.role).toBe('assistant')
    expect(lines.at(-1)?.startMs).toBeGreaterThan(parking?.endMs as number)
    expect(conversation.observer.assessments.filter((record) => record.result === 'signal').length).toBe(2)
  }, 60_000)

  it('an observer error switches the call for good to the fallback, which ends it on the verified farewell', async () => {
    openai.responses.push({ fault: 'server_error' })
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, { observer: observerSettings() })
    const conversation = await runLiveConversation(options)
    expect(conversation.observer.failure).toContain('server error')
    expect(conversation.observer.assessments).toHaveLength(1)
    expect(conversation.completion_policy).toBe('verified_outcome_and_natural_closing')
    expect(conversation.termination_reason).toBe('response_completed')
    expect(openai.server.requestsTo('POST', '/v1/responses')).toHaveLength(1)
  }, 60_000)
})
