import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRateLimiter } from '../../models/rate-limiter.ts'
import { responsesRoute, structuredAnswer } from '../../testing/responses-server/responses-route.ts'
import { SemanticJudgeError, semanticJudgeFailure } from './errors.ts'
import {
  bookingObserved,
  CONTEXT_SENTINEL,
  CRITERION_SENTINEL,
  dimensionOf,
  EXPECTED_SENTINEL,
  type FakeJudgeApi,
  failing,
  judgeBooking,
  judgeBookingWithContext,
  judgeOptions,
  PRIVATE_SENTINEL,
  passing,
  simulatedCall,
  startFakeJudgeApi,
  userContent,
} from './judge.test-helpers.ts'
import { judgeScenario } from './judge-scenario.ts'

let api: FakeJudgeApi

beforeEach(async () => {
  api = await startFakeJudgeApi()
})
afterEach(async () => {
  await api.close()
})

const judged = (error: unknown) => error as SemanticJudgeError

describe('judgeScenario with the Responses judge', () => {
  it('sends one store:false request per applicable dimension with the judge model and effort', async () => {
    api.script.task_understanding = [passing(1, true)]
    api.script.grounded_communication = [passing(0.75)]
    const judgement = await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api))
    expect(api.askedDimensions().sort()).toEqual(['grounded_communication', 'task_understanding'])
    for (const request of api.server.requestsTo('POST', '/v1/responses')) {
      expect(request.body).toMatchObject({
        model: 'judge-model',
        store: false,
        reasoning: { effort: 'medium' },
        text: { format: { type: 'json_schema', strict: true } },
      })
      expect(request.body).not.toHaveProperty('stream')
    }
    expect(judgement.assessed).toBe(true)
    expect(judgement.grades.task_understanding).toMatchObject({ status: 'passed', passed: true, score: 1 })
    expect(judgement.grades.grounded_communication).toMatchObject({ status: 'passed', score: 0.75 })
    expect(judgement.grades.context_fidelity.status).toBe('not_applicable')
    expect(judgement.task_completion).toEqual({ completed: true })
  })

  it('asks three dimensions when the scenario has a conversation context', async () => {
    for (const dimension of ['task_understanding', 'context_fidelity', 'grounded_communication'] as const) {
      api.script[dimension] = [passing()]
    }
    await judgeScenario(judgeBookingWithContext(), bookingObserved(), judgeOptions(api))
    expect(api.askedDimensions().sort()).toEqual([
      'context_fidelity',
      'grounded_communication',
      'task_understanding',
    ])
  })

  it('gives the judge the evaluator side and the observation, and never the private overrides', async () => {
    api.script.task_understanding = [passing()]
    api.script.context_fidelity = [passing()]
    api.script.grounded_communication = [passing()]
    await judgeScenario(judgeBookingWithContext(), bookingObserved(), judgeOptions(api))
    const request = api.server
      .requestsTo('POST', '/v1/responses')
      .find((r) => dimensionOf(r) === 'task_understanding')
    const content = userContent(request ?? { body: null })
    expect(content).toMatch(/^RUBRIC: task_understanding\n/)
    const evidence = JSON.parse(content.slice(content.indexOf('EVALUATION EVIDENCE:\n') + 21))
    expect(evidence.scenario).toMatchObject({
      example_id: 'restaurant_001',
      expected_response: expect.stringContaining(EXPECTED_SENTINEL),
      success_criteria: [expect.stringContaining(CRITERION_SENTINEL)],
      conversation_context: { summary: expect.stringContaining(CONTEXT_SENTINEL) },
      expected_delegation: 'required',
      expected_tool_call: 'create_reservation',
      expected_tool_args: { guest_name: 'maya', party_size: 2 },
      expected_final_state: { reservations: [{ guest_name: 'maya' }] },
    })
    expect(evidence.observed).toMatchObject({
      assistant_response: 'One moment. You are booked, reservation R-001.',
      delegations: ['del_1'],
      backend_messages: ['Reservation R-001 is confirmed for Maya.'],
      tool_executions: [
        { name: 'create_reservation', status: 'completed', output: { reservation_id: 'R-001' } },
      ],
      initial_application_state: { reservations: [] },
      final_application_state: { reservations: [expect.objectContaining({ reservation_id: 'R-001' })] },
      public_business_facts: { business_name: 'Juniper Table', hours: '11:00 a.m. to 10:00 p.m. daily' },
    })
    for (const sent of api.server.requests) {
      expect(sent.rawBody.toString('utf8')).not.toContain(PRIVATE_SENTINEL)
      expect(sent.rawBody.toString('utf8')).not.toContain('availability_overrides')
    }
  })

  it('aggregates repetitions: mean score, majority pass, and the spread between them', async () => {
    api.script.task_understanding = [passing(1, true), failing(0.5, false), passing(1, true)]
    api.script.grounded_communication = [passing(0.75)]
    const judgement = await judgeScenario(
      judgeBooking(),
      bookingObserved(),
      judgeOptions(api, { repetitions: 3 }),
    )
    expect(api.askedDimensions().filter((d) => d === 'task_understanding')).toHaveLength(3)
    expect(api.askedDimensions()).toHaveLength(6)
    expect(judgement.dimensions.task_understanding).toMatchObject({
      status: 'passed',
      score: 0.8333,
      passed: true,
      spread: 0.5,
      task_completed: true,
    })
    expect(judgement.dimensions.grounded_communication).toMatchObject({ score: 0.75, spread: 0 })
    expect(judgement.grades.task_understanding.evidence).toMatchObject({ repetitions: 3, score_spread: 0.5 })
    expect(judgement.usage_events.map((event) => event.repetition).sort()).toEqual([0, 0, 1, 1, 2, 2])
  })

  it('a tie between pass votes is not a majority', async () => {
    api.script.task_understanding = [passing(1, true), failing(0.5, false)]
    api.script.grounded_communication = [passing()]
    const judgement = await judgeScenario(
      judgeBooking(),
      bookingObserved(),
      judgeOptions(api, { repetitions: 2 }),
    )
    expect(judgement.dimensions.task_understanding).toMatchObject({
      status: 'failed',
      passed: false,
      score: 0.75,
    })
  })

  it('records one usage event per request, under an evaluator source (never assistant_backend)', async () => {
    api.script.task_understanding = [passing()]
    api.script.grounded_communication = [passing()]
    const { usage_events } = await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api))
    expect(usage_events).toHaveLength(2)
    for (const event of usage_events) {
      expect(event).toMatchObject({
        source: 'evaluation_judge',
        model: 'judge-model',
        cached: false,
        attempts: 1,
      })
      expect(event.total_tokens).toBeGreaterThan(0)
      expect(event.purpose).toBe(`evaluation_judge/${event.dimension}`)
    }
  })

  it('retries a rate limit and a server error, then judges', async () => {
    api.script.task_understanding = [{ fault: 'rate_limited', retryAfterMs: 10 }, passing()]
    api.script.grounded_communication = [{ fault: 'server_error' }, passing()]
    const judgement = await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api))
    expect(judgement.usage_events.map((event) => event.attempts)).toEqual([2, 2])
    expect(judgement.grades.task_understanding.status).toBe('passed')
  })

  it('a judge that keeps failing is an infrastructure failure at stage semantic_judge, naming judge and model', async () => {
    api.script.task_understanding = [{ fault: 'server_error' }]
    api.script.grounded_communication = [passing()]
    const error = judged(
      await judgeScenario(
        judgeBooking(),
        bookingObserved(),
        judgeOptions(api, { retry: { maxAttempts: 2, sleep: async () => {} } }),
      ).catch((caught: unknown) => caught),
    )
    expect(error).toBeInstanceOf(SemanticJudgeError)
    expect(error.stage).toBe('semantic_judge')
    expect(error.dimension).toBe('task_understanding')
    expect(error.message).toContain(
      'Semantic judge "responses:task_understanding" (task_understanding) failed',
    )
    expect(error.message).toContain('judge-model for evaluation_judge/task_understanding')
    // The dimension that did answer still reports what it cost.
    expect(error.usage_events.map((event) => event.dimension)).toEqual(['grounded_communication'])
    expect(semanticJudgeFailure(error)).toEqual({ stage: 'semantic_judge', message: error.message })
  })

  it('an answer that is not a structured decision fails the judge, never becomes a grade', async () => {
    api.script.task_understanding = [{ output: [{ type: 'refusal', refusal: 'No.' }] }]
    api.script.grounded_communication = [passing()]
    const error = judged(
      await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api)).catch(
        (caught: unknown) => caught,
      ),
    )
    expect(error.message).toContain(
      'no structured decision from judge-model for evaluation_judge/task_understanding',
    )
  })

  it('offline or disabled: no request, applicable dimensions not_assessed with null scores', async () => {
    for (const options of [judgeOptions(api, { mode: 'offline' }), judgeOptions(api, { enabled: false })]) {
      const judgement = await judgeScenario(judgeBooking(), bookingObserved(), options)
      expect(judgement.assessed).toBe(false)
      expect(judgement.usage_events).toEqual([])
      expect(judgement.grades.task_understanding).toMatchObject({
        status: 'not_assessed',
        passed: null,
        score: null,
      })
      expect(judgement.grades.grounded_communication.status).toBe('not_assessed')
      expect(judgement.grades.conversational_coherence.status).toBe('not_applicable')
    }
    expect(api.server.requests).toHaveLength(0)
  })

  it('refuses options that could only give a wrong judgment', async () => {
    await expect(
      judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api, { repetitions: 0 })),
    ).rejects.toThrow(/repetitions must be an integer of at least 1/)
  })

  it('a judge request that never answers ends at the timeout as a semantic_judge failure', async () => {
    api.script.task_understanding = [{ fault: 'hang' }]
    api.script.grounded_communication = [passing()]
    const error = judged(
      await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api, { timeoutMs: 50 })).catch(
        (caught: unknown) => caught,
      ),
    )
    expect(error).toMatchObject({ stage: 'semantic_judge', dimension: 'task_understanding' })
    expect(error.message).toContain('model call failed (timeout)')
  })

  it('scenarios judged at once share the limiter: never more requests in flight than it allows', async () => {
    let inFlight = 0
    let most = 0
    const route = responsesRoute({ respond: () => structuredAnswer(passing(1, true), { delayMs: 15 }) })
    api.server.route('POST', '/v1/responses', async (request, response) => {
      inFlight += 1
      most = Math.max(most, inFlight)
      try {
        return await route(request, response)
      } finally {
        inFlight -= 1
      }
    })
    const limiter = createRateLimiter({ maxConcurrent: 1 })
    await Promise.all([
      judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api, { limiter })),
      judgeScenario(judgeBookingWithContext(), bookingObserved(), judgeOptions(api, { limiter })),
    ])
    expect(api.server.requestsTo('POST', '/v1/responses')).toHaveLength(5)
    expect(most).toBe(1)
  })

  it('refuses a simulated call (RUN judges the whole conversation through judgeRunGrade) and sends nothing', async () => {
    const error = judged(
      await judgeScenario(simulatedCall(), bookingObserved(), judgeOptions(api)).catch(
        (caught: unknown) => caught,
      ),
    )
    expect(error).toBeInstanceOf(SemanticJudgeError)
    expect(error.stage).toBe('semantic_judge')
    expect(error.message).toContain('judgeRunGrade')
    expect(api.server.requests).toHaveLength(0)
  })
})
