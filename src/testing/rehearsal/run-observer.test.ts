// The rehearsal's completion observer judges the evidence it is sent, through the live observer's own call: the
// harness's callCompletionObserver asks a real HTTP server on loopback whose Responses route is observerAnswer.
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundledRunScenario } from '../../phases/run/conversation.test-helpers.ts'
import {
  callCompletionObserver,
  type ObserverInput,
  observerFactsOf,
} from '../../phases/run/live/observer-call.ts'
import { responsesRoute } from '../responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../responses-server/server.ts'
import { observerAnswer, observerDecision } from './run-observer.ts'

let server: ResponsesServer
beforeAll(async () => {
  server = await startResponsesServer()
  server.route('POST', '/v1/responses', responsesRoute({ respond: (request) => observerAnswer(request) }))
})
afterAll(async () => {
  await server.close()
})

async function evidence(
  id: string,
  change: (state: Record<string, unknown>) => void,
  conversation: ObserverInput['conversation'],
  pending = false,
): Promise<ObserverInput> {
  const scenario = await bundledRunScenario(id)
  const initial = structuredClone(scenario.application.initial_state) as Record<string, unknown>
  const observed = structuredClone(initial)
  change(observed)
  return {
    ...observerFactsOf(scenario),
    initial_application_state: initial,
    observed_application_state: observed,
    expected_state_verified: false,
    assistant_work_pending: pending,
    completed_application_tools: [],
    conversation,
  }
}

const booked = (state: Record<string, unknown>) =>
  Object.assign(state, {
    reservation_created: true,
    guest_name: 'Rivera',
    date: '2026-08-14',
    time: '19:00',
    party_size: 2,
    reservations: [
      {
        reservation_id: 'R-001',
        guest_name: 'Rivera',
        date: '2026-08-14',
        time: '19:00',
        party_size: 2,
        cancelled: false,
      },
    ],
  })

const farewell: ObserverInput['conversation'] = [
  { role: 'user', text: 'A table for two on August 14 at 7 p.m., under Rivera.', end_ms: 4_000 },
  { role: 'assistant', text: 'You are booked for two on August 14 at 19:00.', end_ms: 8_000 },
  { role: 'user', text: 'Thanks so much. Goodbye!', end_ms: 10_000 },
]

const ask = async (input: ObserverInput) => {
  const client = new OpenAI({ apiKey: 'rehearsal', baseURL: server.baseURL, maxRetries: 0 })
  return (await callCompletionObserver({ client, model: 'gpt-5.6-luna', timeoutMs: 5_000 }, input)).decision
}

describe('the rehearsal completion observer', () => {
  it('drains a call whose expected state is held once the caller said goodbye, over the observer’s real call', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    expect(Object.keys(scenario.expected.state).length).toBeGreaterThan(0)
    const input = await evidence('run_001_booking_complete', booked, farewell)
    expect(await ask(input)).toMatchObject({ should_drain: true, outcome: 'resolved' })
  })

  it('does not drain before the goodbye, while work is pending, or when the state is not the expected one', async () => {
    const early = await evidence('run_001_booking_complete', booked, farewell.slice(0, 2))
    expect(await ask(early)).toMatchObject({ should_drain: false, outcome: 'unresolved' })
    const pending = await evidence('run_001_booking_complete', booked, farewell, true)
    expect(await ask(pending)).toMatchObject({ should_drain: false, outcome: 'unresolved' })
    // The caller said goodbye over a booking for the wrong party size: not finished, whatever the flag says.
    const wrong = await evidence(
      'run_001_booking_complete',
      (state) => Object.assign(booked(state), { party_size: 3 }),
      farewell,
    )
    wrong.expected_state_verified = true
    expect(await ask(wrong)).toMatchObject({ should_drain: false, outcome: 'unresolved' })
  })

  it('calls a clear refusal with nothing changed refused, and an unchanged expectation resolved', async () => {
    const refusal: ObserverInput['conversation'] = [
      { role: 'user', text: 'Please cancel reservation R-101.', end_ms: 3_000 },
      { role: 'assistant', text: "I'm sorry, I can't cancel that without the name on it.", end_ms: 7_000 },
      { role: 'user', text: 'Okay, bye.', end_ms: 9_000 },
    ]
    const unauthorized = await evidence('run_008_cancel_unauthorized', () => {}, refusal)
    // run_008 expects nothing to change: holding that is its expected outcome.
    expect(unauthorized.expected_application_state).toEqual({ unchanged: true })
    expect(await ask(unauthorized)).toMatchObject({ should_drain: true, outcome: 'resolved' })
    const notBooked = await evidence('run_001_booking_complete', () => {}, refusal)
    expect(observerDecision(notBooked)).toMatchObject({ should_drain: true, outcome: 'refused' })
  })

  it('answers only the observer’s requests, and an observer request without evidence with "unresolved"', () => {
    expect(observerAnswer({ model: 'm', input: 'hello' })).toBeUndefined()
    const answer = observerAnswer({
      model: 'm',
      input: [{ role: 'user', content: '{"conversation": 3}' }],
      text: { format: { type: 'json_schema', name: 'completion_decision' } },
    })
    expect(answer?.output[0]).toMatchObject({ type: 'message' })
    const text = (answer?.output[0] as { text: string } | undefined)?.text ?? ''
    expect(JSON.parse(text)).toMatchObject({ should_drain: false, outcome: 'unresolved' })
  })
})
