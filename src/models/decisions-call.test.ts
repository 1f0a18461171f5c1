import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callDecisions, type DecisionsCallRequest } from './decisions-call.ts'
import type { ModelCallError } from './errors.ts'
import { recordingSleep, type ScriptedOpenAi, startScriptedOpenAi } from './models.test-helpers.ts'
import { createRateLimiter } from './rate-limiter.ts'

let fake: ScriptedOpenAi
let sleeper: ReturnType<typeof recordingSleep>

beforeEach(async () => {
  fake = await startScriptedOpenAi()
  sleeper = recordingSleep()
})
afterEach(async () => {
  await fake.server.close()
})

function request(extra: Partial<DecisionsCallRequest> = {}): DecisionsCallRequest {
  return {
    client: fake.client,
    model: 'gpt-6-luna',
    source: 'evaluation_judge',
    purpose: 'evaluation_judge/decisions',
    input: 'The assistant confirmed a booking for two at 7 p.m.',
    questions: [{ type: 'predicate', name: 'confirmed', instructions: 'The booking was confirmed.' }],
    retry: { sleep: sleeper.sleep },
    ...extra,
  }
}

describe('callDecisions', () => {
  it('sends one decisions request without store or effort and returns the answers with a usage event', async () => {
    fake.decisions.push({ answers: { confirmed: { type: 'predicate', probability: 0.8 } } })
    const { decision, usage } = await callDecisions(request())
    expect(decision.answers).toEqual([{ type: 'predicate', name: 'confirmed', probability: 0.8 }])
    const body = fake.server.requestsTo('POST', '/v1/decisions')[0]?.body as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['input', 'model', 'questions'])
    expect(usage).toMatchObject({
      source: 'evaluation_judge',
      model: 'gpt-6-luna',
      attempts: 1,
      cached: false,
    })
  })

  it('retries a rate limit through a shared limiter, which pauses for the hint', async () => {
    fake.decisions.push(
      { fault: 'rate_limited', retryAfterMs: 700 },
      { answers: { confirmed: { type: 'predicate', probability: 0.1 } } },
    )
    const limiter = createRateLimiter({ maxConcurrent: 1, now: () => 0, sleep: sleeper.sleep })
    const { usage } = await callDecisions(request({ limiter }))
    expect(usage.attempts).toBe(2)
    // The retry's own wait, then the limiter's hold on every next start. The clock here is frozen, so the hold
    // shows as a second wait; on a real clock the retry's wait has already used it up.
    expect(sleeper.waits).toEqual([700, 700])
  })

  it('an answer list that does not line up with the questions is "no structured decision"', async () => {
    fake.server.route('POST', '/v1/decisions', () => ({
      body: { model: 'gpt-6-luna', answers: [], usage: null },
    }))
    const error = (await callDecisions(request()).catch((caught: unknown) => caught)) as ModelCallError
    expect(error).toMatchObject({ kind: 'no_structured_decision' })
    expect(error.message).toContain('0 answers came back for 1 questions')
  })
})
