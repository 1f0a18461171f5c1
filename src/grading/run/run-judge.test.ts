// judgeRunGrade against a real loopback HTTP server answering the openai SDK (the single-turn judge tests' fake):
// the RUN rules of §3.6 — the judge can fail a deterministic pass, never rescue a deterministic fail — the
// repetitions, the task_understanding tailoring and the evaluator-side boundary.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RUN_OUTCOME_CRITERIA } from '../judge/dimension-evidence.ts'
import {
  type DimensionReply,
  dimensionOf,
  type FakeJudgeApi,
  failing,
  judgeOptions,
  PRIVATE_SENTINEL,
  passing,
  startFakeJudgeApi,
  userContent,
} from '../judge/judge.test-helpers.ts'
import { SEMANTIC_DIMENSIONS, type SemanticDimension } from '../semantic-applicability.ts'
import { BOOKING, executed } from './run-grading.test-helpers.ts'
import {
  ANSWER_SENTINEL,
  BOOKED_STATE,
  bookingCallFacts,
  bookingCallObserved,
  CRITERION_SENTINEL,
  deterministicGrade,
  EMPTY_STATE,
  GOAL_SENTINEL,
  SOP_SENTINEL,
} from './run-judge.test-helpers.ts'
import { judgeRunGrade } from './run-judge.ts'
import type { RunObservation } from './run-outcome.ts'

let api: FakeJudgeApi

beforeEach(async () => {
  api = await startFakeJudgeApi()
})
afterEach(async () => {
  await api.close()
})

/** Every applicable dimension answers the same (task_understanding with the given completion vote). */
function scriptAll(understanding: DimensionReply[], others: DimensionReply[] = [passing()]): void {
  for (const dimension of SEMANTIC_DIMENSIONS)
    api.script[dimension] = dimension === 'task_understanding' ? understanding : others
}

async function judgeCall(overrides: Partial<RunObservation> = {}, extra = {}) {
  const facts = bookingCallFacts()
  const observed = bookingCallObserved(overrides)
  const deterministic = deterministicGrade(facts, observed)
  const judged = await judgeRunGrade(facts, deterministic, observed, judgeOptions(api, extra))
  return { deterministic, ...judged }
}

const check = (grade: { assessment: { checks: { id: string; status: string }[] } }, id: string) =>
  grade.assessment.checks.find((item) => item.id === id)

/** The parsed evidence and the system prompt of the request that judged `dimension`. */
function sentTo(dimension: SemanticDimension) {
  const request = api.server.requestsTo('POST', '/v1/responses').find((r) => dimensionOf(r) === dimension)
  if (request === undefined) throw new Error(`no request judged ${dimension}`)
  const content = userContent(request)
  const input = (request.body as { input: { role: string; content: string }[] }).input
  return {
    raw: request.rawBody.toString('utf8'),
    system: input.find((item) => item.role === 'system')?.content ?? '',
    evidence: JSON.parse(content.slice(content.indexOf('EVALUATION EVIDENCE:\n') + 21)),
  }
}

describe('judgeRunGrade: when nothing is judged', () => {
  it('without judge options the deterministic grade stands and nothing is sent', async () => {
    const facts = bookingCallFacts()
    const observed = bookingCallObserved()
    const deterministic = deterministicGrade(facts, observed)
    const { grade, semantic } = await judgeRunGrade(facts, deterministic, observed, null)
    expect(grade).toBe(deterministic)
    expect(grade.semantic_grades.task_understanding.status).toBe('not_assessed')
    expect(grade.semantic_quality).toEqual({ score: null, dimensions: {} })
    expect(semantic).toEqual({ judgement: null, applied: null, failure: null, usage_events: [] })
    expect(api.server.requests).toHaveLength(0)
  })

  it('offline or disabled: no request, every applicable dimension not_assessed with a null score', async () => {
    for (const extra of [{ mode: 'offline' as const }, { enabled: false }]) {
      const { grade, deterministic, semantic } = await judgeCall({}, extra)
      expect(semantic.judgement?.assessed).toBe(false)
      expect(semantic.applied).toBeNull()
      expect(grade.task_completed).toBe(deterministic.task_completed)
      for (const dimension of SEMANTIC_DIMENSIONS)
        expect(grade.semantic_grades[dimension]).toMatchObject({ status: 'not_assessed', score: null })
      expect(grade.semantic_quality.score).toBeNull()
    }
    expect(api.server.requests).toHaveLength(0)
  })

  it('a conversation that did not complete is not sent, and its dimensions say why', async () => {
    scriptAll([passing(1, true)])
    const { grade, semantic } = await judgeCall({ termination_reason: 'duration_limit' })
    expect(api.server.requests).toHaveLength(0)
    expect(semantic.judgement).toBeNull()
    expect(grade.task_completed).toBe(false)
    expect(grade.semantic_grades.conversational_coherence).toMatchObject({
      status: 'not_assessed',
      rationale: 'Not judged: the conversation did not complete (duration_limit).',
    })
  })
})

describe('judgeRunGrade: applying the judge', () => {
  it('a judged pass keeps the pass; semantic_quality is the mean of the dimension scores', async () => {
    api.script.task_understanding = [passing(1, true)]
    api.script.context_fidelity = [passing(0.75)]
    api.script.clarification_quality = [failing(0.5)]
    api.script.grounded_communication = [passing(1)]
    api.script.conversational_coherence = [passing(0.75)]
    const { grade, deterministic, semantic } = await judgeCall()
    expect(deterministic.task_completed).toBe(true)
    expect(api.askedDimensions().sort()).toEqual([...SEMANTIC_DIMENSIONS].sort())
    expect(grade.task_completed).toBe(true)
    expect(grade.assessment.source).toBe('semantic_judge')
    expect(check(grade, 'semantic_outcome')).toMatchObject({ status: 'passed', required: true })
    expect(grade.semantic_quality.score).toBe(0.8)
    expect(grade.semantic_grades.clarification_quality).toMatchObject({ status: 'failed', score: 0.5 })
    expect(semantic.applied).toMatchObject({
      task_completed: true,
      deterministic_task_completed: true,
      semantic_task_completed: true,
      semantic_requirements_satisfied: false,
      semantic_outcome_score: 1,
      completion_source: 'llm',
    })
    expect(semantic.usage_events).toHaveLength(5)
    expect(semantic.failure).toBeNull()
  })

  it('a semantic fail turns a deterministic pass into a fail', async () => {
    scriptAll([failing(0.25, false)])
    const { grade, deterministic, semantic } = await judgeCall()
    expect(deterministic.task_completed).toBe(true)
    expect(grade.task_completed).toBe(false)
    expect(check(grade, 'semantic_outcome')).toMatchObject({ status: 'failed', required: true })
    expect(grade.assessment.rationale).toBe('Required checks failed: semantic_outcome.')
    expect(semantic.applied).toMatchObject({ deterministic_task_completed: true, task_completed: false })
  })

  it('decides on task_understanding’s task_completed vote, not on its pass flag', async () => {
    scriptAll([{ ...passing(0.75), task_completed: false }])
    const { grade } = await judgeCall()
    expect(grade.semantic_grades.task_understanding.status).toBe('passed')
    expect(grade.task_completed).toBe(false)
  })

  const deterministicFailures: [string, string, Partial<RunObservation>][] = [
    ['a wrong state', 'application_state', { final_application_state: EMPTY_STATE }],
    [
      'a prohibited attempt (even one that failed)',
      'authorized_actions',
      {
        tool_executions: [
          { ...executed('create_reservation', BOOKING, 6_000), output: { reservation_id: 'R-001' } },
          executed('cancel_reservation', { reservation_id: 'R-001' }, 8_500, 'failed'),
        ],
      },
    ],
    [
      'a failed critical step',
      'critical_procedure',
      { tool_executions: [executed('create_reservation', { ...BOOKING, party_size: 3 }, 6_000)] },
    ],
    [
      'a missing grounded response',
      'grounded_assistant_response',
      {
        tool_executions: [executed('create_reservation', BOOKING, 9_700)],
        post_tool_assistant_text: '',
      },
    ],
  ]
  it.each(deterministicFailures)(
    'a semantic pass cannot rescue %s',
    async (_name, failedCheck, overrides) => {
      scriptAll([passing(1, true)])
      const { grade, deterministic, semantic } = await judgeCall(overrides)
      expect(deterministic.task_completed).toBe(false)
      expect(check(deterministic, failedCheck)).toMatchObject({ status: 'failed', required: true })
      expect(semantic.judgement?.task_completion.completed).toBe(true)
      expect(grade.task_completed).toBe(false)
      expect(check(grade, 'semantic_outcome')?.status).toBe('passed')
      expect(check(grade, failedCheck)).toMatchObject({ status: 'failed', required: true })
      expect(semantic.applied).toMatchObject({ semantic_task_completed: true, task_completed: false })
    },
  )

  it('keeps the deterministic evidence (tools, procedure) beside the judged verdict', async () => {
    scriptAll([passing(1, true)])
    const { grade, deterministic } = await judgeCall()
    expect(grade.tools).toEqual(deterministic.tools)
    expect(grade.procedure).toEqual(deterministic.procedure)
    expect(grade.outcome_state_satisfied).toBe(true)
  })
})

describe('judgeRunGrade: repetitions', () => {
  it('mean score and majority pass per dimension, task completion by majority vote', async () => {
    api.script.task_understanding = [passing(1, true), failing(0.5, false), passing(1, true)]
    api.script.grounded_communication = [passing(1), failing(0.5), failing(0.25)]
    for (const dimension of [
      'context_fidelity',
      'clarification_quality',
      'conversational_coherence',
    ] as const)
      api.script[dimension] = [passing(1)]
    const { grade, semantic } = await judgeCall({}, { repetitions: 3 })
    expect(api.askedDimensions()).toHaveLength(15)
    expect(semantic.judgement?.dimensions.task_understanding).toMatchObject({
      score: 0.8333,
      passed: true,
      task_completed: true,
    })
    expect(grade.semantic_grades.grounded_communication).toMatchObject({
      status: 'failed',
      passed: false,
      score: 0.5833,
    })
    expect(grade.task_completed).toBe(true)
    expect(semantic.usage_events.map((event) => event.repetition).sort()).toEqual(
      [0, 1, 2].flatMap((repetition) => Array(5).fill(repetition)),
    )
  })

  it('a majority of not-completed votes fails the call', async () => {
    scriptAll([failing(0.5, false), passing(1, true), failing(0.25, false)])
    const { grade, semantic } = await judgeCall({}, { repetitions: 3 })
    expect(semantic.judgement?.task_completion.completed).toBe(false)
    expect(grade.task_completed).toBe(false)
  })
})

describe('judgeRunGrade: a judge that cannot judge', () => {
  it('fails at stage semantic_judge, the deterministic grade standing and the spent usage kept', async () => {
    scriptAll([{ fault: 'server_error' }])
    const { grade, deterministic, semantic } = await judgeCall(
      {},
      { retry: { maxAttempts: 2, sleep: async () => {} } },
    )
    expect(grade).toBe(deterministic)
    expect(semantic.judgement).toBeNull()
    expect(semantic.failure).toMatchObject({ stage: 'semantic_judge' })
    expect(semantic.failure?.message).toContain('task_understanding')
    expect(semantic.usage_events.map((event) => event.dimension).sort()).toEqual(
      SEMANTIC_DIMENSIONS.filter((dimension) => dimension !== 'task_understanding').sort(),
    )
  })

  it('a task_understanding answer without a task_completed vote cannot decide a call: semantic_judge failure', async () => {
    scriptAll([passing(1, true), passing(1, null)])
    const { grade, deterministic, semantic } = await judgeCall({}, { repetitions: 2 })
    expect(grade).toBe(deterministic)
    expect(semantic.failure).toMatchObject({ stage: 'semantic_judge' })
    expect(semantic.failure?.message).toContain('no task_completed vote in 1 of 2')
    expect(semantic.usage_events).toHaveLength(10)
  })

  it('a deterministic grade that re-assessing would change is refused: it stands, never rescued', async () => {
    scriptAll([passing(1, true)])
    const facts = bookingCallFacts()
    const observed = bookingCallObserved()
    const clean = deterministicGrade(facts, observed)
    // A grade whose authorized_actions failed on evidence this observation does not hold (another source's count).
    const deterministic = {
      ...clean,
      task_completed: false,
      assessment: {
        ...clean.assessment,
        passed: false,
        checks: clean.assessment.checks.map((item) =>
          item.id === 'authorized_actions' ? { ...item, status: 'failed' as const } : item,
        ),
      },
    }
    const { grade, semantic } = await judgeRunGrade(facts, deterministic, observed, judgeOptions(api))
    expect(grade).toBe(deterministic)
    expect(semantic.failure).toMatchObject({ stage: 'semantic_judge' })
    expect(semantic.failure?.message).toContain('check authorized_actions was failed')
    expect(semantic.usage_events).toHaveLength(5)
  })

  it('an option the judge refuses is a semantic_judge failure, not a crash', async () => {
    const { semantic } = await judgeCall({}, { repetitions: 0 })
    expect(semantic.failure).toMatchObject({ stage: 'semantic_judge' })
    expect(semantic.failure?.message).toContain('repetitions')
    expect(api.server.requests).toHaveLength(0)
  })
})

describe('judgeRunGrade: what the judge is shown', () => {
  it('every request carries the simulated-call leniency rules in its system prompt', async () => {
    scriptAll([passing(1, true)])
    await judgeCall()
    for (const dimension of SEMANTIC_DIMENSIONS) {
      const { system } = sentTo(dimension)
      expect(system).toContain('This was a whole simulated call.')
      expect(system).toContain('Do not penalize the simulated caller')
      expect(system).toContain('Penalize only explicit claims of external changes')
    }
  })

  it('the whole timed conversation, backend messages, tool executions with outputs, both states, public facts and the goal', async () => {
    scriptAll([passing(1, true)])
    await judgeCall()
    for (const dimension of SEMANTIC_DIMENSIONS) {
      const { evidence, raw } = sentTo(dimension)
      expect(evidence.scenario.simulation_goal).toContain(GOAL_SENTINEL)
      expect(evidence.scenario.prohibited_tool_calls).toEqual([
        expect.objectContaining({ name: 'cancel_reservation' }),
      ])
      expect(evidence.observed.conversation).toEqual([
        { role: 'caller', text: expect.stringContaining('table for four'), start_ms: 0, end_ms: 1_200 },
        { role: 'assistant', text: 'Sure, what name should I put it under?', start_ms: 1_500, end_ms: 2_800 },
        { role: 'caller', text: 'Patel.', start_ms: 3_000, end_ms: 3_400 },
        { role: 'assistant', text: 'One moment.', start_ms: 4_200, end_ms: 4_700 },
        { role: 'assistant', text: 'You are booked, reservation R-001.', start_ms: 6_500, end_ms: 8_000 },
        { role: 'caller', text: 'Thanks, bye.', start_ms: 9_000, end_ms: 9_600 },
      ])
      expect(evidence.observed).toMatchObject({
        termination_reason: 'user_stopped',
        delegations: ['del_1'],
        backend_messages: ['Reservation R-001 is confirmed for Patel.'],
        tool_executions: [
          {
            name: 'create_reservation',
            status: 'completed',
            arguments: BOOKING,
            output: { reservation_id: 'R-001' },
            completed_at_ms: 6_000,
          },
        ],
        initial_application_state: EMPTY_STATE,
        final_application_state: BOOKED_STATE,
        public_business_facts: { business_name: 'Juniper Table' },
        verified_outcome: { outcome_state_satisfied: true, prohibited_tool_call_count: 0 },
      })
      expect(evidence.observed.verified_outcome.checks.map((item: { id: string }) => item.id)).not.toContain(
        'semantic_outcome',
      )
      expect(raw).not.toContain(PRIVATE_SENTINEL)
      expect(raw).not.toContain('availability_overrides')
    }
  })

  it('task_understanding: the goal as expected response, the outcome criteria, preferred tools, and no SOP', async () => {
    scriptAll([passing(1, true)])
    await judgeCall()
    const { evidence, raw } = sentTo('task_understanding')
    expect(evidence.scenario.expected_response).toContain(GOAL_SENTINEL)
    expect(evidence.scenario.success_criteria).toEqual([
      expect.stringContaining(CRITERION_SENTINEL),
      ...RUN_OUTCOME_CRITERIA,
    ])
    expect(evidence.scenario.preferred_tool_calls).toEqual([
      expect.objectContaining({ name: 'create_reservation', arguments: BOOKING }),
    ])
    expect(evidence.scenario).not.toHaveProperty('expected_tool_calls')
    expect(evidence).not.toHaveProperty('procedure')
    expect(raw).not.toContain(SOP_SENTINEL)
    expect(raw).not.toContain('standard_operating_procedure')
    expect(raw).not.toContain('step_results')
    expect(raw).not.toContain(ANSWER_SENTINEL)
  })

  it('the other dimensions: the SOP with each step’s result, the expected answer and the expected tools', async () => {
    scriptAll([passing(1, true)])
    await judgeCall()
    for (const dimension of SEMANTIC_DIMENSIONS.filter((name) => name !== 'task_understanding')) {
      const { evidence } = sentTo(dimension)
      expect(evidence.procedure.standard_operating_procedure.id).toBe(SOP_SENTINEL)
      expect(
        evidence.procedure.step_results.map((step: { id: string; passed: boolean }) => [
          step.id,
          step.passed,
        ]),
      ).toEqual([
        ['ask_name', true],
        ['book', true],
        ['confirm', true],
      ])
      expect(evidence.scenario.expected_response).toContain(ANSWER_SENTINEL)
      expect(evidence.scenario.success_criteria).toEqual([expect.stringContaining(CRITERION_SENTINEL)])
      expect(evidence.scenario.expected_tool_calls).toEqual([
        expect.objectContaining({ name: 'create_reservation' }),
      ])
    }
  })

  it('the Decisions backend asks task_understanding apart, without the SOP, and the others together with it', async () => {
    const answers = Object.fromEntries(
      SEMANTIC_DIMENSIONS.map((dimension) => [
        dimension,
        { type: 'score' as const, probabilities: { fully_satisfied: 1 } },
      ]),
    )
    api.decisions.push({ answers }, { answers })
    const { grade, semantic } = await judgeCall({}, { backend: 'decisions' })
    const sent = api.server.requestsTo('POST', '/v1/decisions')
    expect(sent).toHaveLength(2)
    const asked = sent.map((request) => ({
      names: (request.body as { questions: { name: string }[] }).questions.map((question) => question.name),
      raw: request.rawBody.toString('utf8'),
    }))
    const understanding = asked.find((request) => request.names.includes('task_understanding'))
    const others = asked.find((request) => !request.names.includes('task_understanding'))
    expect(understanding?.names).toEqual(['task_understanding'])
    expect(understanding?.raw).not.toContain(SOP_SENTINEL)
    expect(understanding?.raw).toContain('This was a whole simulated call.')
    expect(others?.names.sort()).toEqual(
      SEMANTIC_DIMENSIONS.filter((name) => name !== 'task_understanding').sort(),
    )
    expect(others?.raw).toContain(SOP_SENTINEL)
    expect(grade.task_completed).toBe(true)
    expect(semantic.usage_events).toHaveLength(2)
  })
})

describe('judgeRunGrade: the evaluator-side boundary', () => {
  function deepFreeze<T>(value: T): T {
    if (typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) deepFreeze(item)
      Object.freeze(value)
    }
    return value
  }

  it('reads only the facts, the grade, the observation and the business facts; writes nothing back; talks only to the judge', async () => {
    scriptAll([passing(1, true)])
    const facts = bookingCallFacts()
    const observed = bookingCallObserved()
    const deterministic = deterministicGrade(facts, observed)
    const before = structuredClone({ facts, observed, deterministic })
    deepFreeze({ facts, observed, deterministic })
    const read = new Set<string | symbol>()
    const watched = new Proxy(observed, {
      get(target, key, receiver) {
        read.add(key)
        return Reflect.get(target, key, receiver)
      },
    })
    const { grade } = await judgeRunGrade(facts, deterministic, watched, judgeOptions(api))
    expect(grade.task_completed).toBe(true)
    // Frozen inputs: a write would have thrown; they are also unchanged in value.
    expect({ facts, observed, deterministic }).toEqual(before)
    expect([...read].sort()).toEqual(['business_facts', 'observation'])
    // The only traffic is the judge's: one Responses request per dimension, no session, no other endpoint.
    expect(api.server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array(5).fill('POST /v1/responses'),
    )
    // Every request is evaluator-side: it may hold the expected data (that is what the judge grades against).
    expect(sentTo('grounded_communication').raw).toContain(ANSWER_SENTINEL)
  })

  it('the judged grade holds no evaluator-only expectation beyond what the deterministic grade already held', async () => {
    scriptAll([passing(1, true)])
    const { grade, deterministic } = await judgeCall()
    const { semantic_grades: _judged, ...judgedRest } = grade
    const { semantic_grades: _unjudged, ...deterministicRest } = deterministic
    for (const sentinel of [GOAL_SENTINEL, ANSWER_SENTINEL, CRITERION_SENTINEL]) {
      expect(JSON.stringify(judgedRest)).not.toContain(sentinel)
      expect(JSON.stringify(deterministicRest)).not.toContain(sentinel)
    }
  })
})
