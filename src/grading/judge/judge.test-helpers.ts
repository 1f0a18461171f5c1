// Builders for judge tests: a loopback fake OpenAI server whose /v1/responses answers by the dimension the request
// asks about (and the repetition, counted per dimension), a booking scenario with a conversation context and
// sentinel strings on both sides of the boundary, and default options pointing at the fake.

import OpenAI from 'openai'
import { decisionsRoute, type ScriptedDecision } from '../../testing/responses-server/decisions-route.ts'
import type { ScriptedFault } from '../../testing/responses-server/faults.ts'
import {
  type ResponsesRequest,
  responsesRoute,
  type ScriptedResponse,
  structuredAnswer,
} from '../../testing/responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../../testing/responses-server/server.ts'
import {
  bookingObservation,
  bookingScenario,
  expectedOutcome,
  expectedToolCall,
} from '../grading-fixtures.ts'
import type { SemanticDimension } from '../semantic-applicability.ts'
import type { JudgeDecision } from './decision-schema.ts'
import type { JudgeObserved, JudgeScenarioFacts } from './evidence.ts'
import type { SemanticJudgeOptions } from './options.ts'

/** Strings that must never reach the judge: the executor's private availability overrides. */
export const PRIVATE_SENTINEL = 'SENTINEL_PRIVATE_OVERRIDE_7Q'
/** Evaluator-only strings the judge must see. */
export const EXPECTED_SENTINEL = 'SENTINEL_EXPECTED_ANSWER_3K'
export const CRITERION_SENTINEL = 'SENTINEL_CRITERION_9Z'
export const CONTEXT_SENTINEL = 'SENTINEL_CONTEXT_SUMMARY_5M'

export type DimensionReply = JudgeDecision | ScriptedResponse | ScriptedFault
/** Replies per dimension, in repetition order (the last one repeats when a dimension is asked again). */
export type JudgeScript = Partial<Record<SemanticDimension, DimensionReply[]>>

export interface FakeJudgeApi {
  server: ResponsesServer
  client: OpenAI
  script: JudgeScript
  decisions: (ScriptedDecision | ScriptedFault)[]
  /** The dimension each /v1/responses request asked about, in arrival order. */
  askedDimensions(): string[]
  close(): Promise<void>
}

export function passing(
  score: JudgeDecision['score'] = 1,
  task_completed: boolean | null = null,
): JudgeDecision {
  return {
    passed: true,
    score,
    rationale: 'Booked as asked.',
    evidence: ['reservation R-001'],
    task_completed,
  }
}

export function failing(
  score: JudgeDecision['score'] = 0.25,
  task_completed: boolean | null = null,
): JudgeDecision {
  return { passed: false, score, rationale: 'Missed the request.', evidence: [], task_completed }
}

export function userContent(request: { body: unknown }): string {
  const input = (request.body as ResponsesRequest).input
  if (!Array.isArray(input)) return ''
  const user = input.find((item) => item.role === 'user')
  return typeof user?.content === 'string' ? user.content : ''
}

export function dimensionOf(request: { body: unknown }): string {
  return /^RUBRIC: (\w+)/.exec(userContent(request))?.[1] ?? ''
}

export async function startFakeJudgeApi(): Promise<FakeJudgeApi> {
  const script: JudgeScript = {}
  const decisions: (ScriptedDecision | ScriptedFault)[] = []
  const asked = new Map<string, number>()
  const server = await startResponsesServer({
    routes: {
      'POST /v1/responses': responsesRoute({
        respond: (request) => {
          const dimension = dimensionOf({ body: request }) as SemanticDimension
          const count = asked.get(dimension) ?? 0
          asked.set(dimension, count + 1)
          const replies = script[dimension] ?? []
          const reply = replies[Math.min(count, replies.length - 1)]
          if (reply === undefined) return undefined
          return 'fault' in reply || 'output' in reply ? reply : structuredAnswer(reply)
        },
      }),
      'POST /v1/decisions': decisionsRoute({ respond: (_request, index) => decisions[index] }),
    },
  })
  return {
    server,
    client: new OpenAI({ apiKey: 'test', baseURL: server.baseURL }),
    script,
    decisions,
    askedDimensions: () => server.requestsTo('POST', '/v1/responses').map(dimensionOf),
    close: () => server.close(),
  }
}

/** A booking that requires create_reservation (task_understanding + grounded_communication apply). */
export function judgeBooking(): JudgeScenarioFacts {
  const facts = bookingScenario({
    answer: `Your table is booked. ${EXPECTED_SENTINEL}`,
    criteria: [`Confirms the reservation id. ${CRITERION_SENTINEL}`],
  })
  return { ...facts, conversation_context: null, simulation_goal: null }
}

/** The same booking after an earlier call: context_fidelity applies too. */
export function judgeBookingWithContext(): JudgeScenarioFacts {
  return {
    ...judgeBooking(),
    has_conversation_context: true,
    conversation_context: { summary: `Maya called earlier. ${CONTEXT_SENTINEL}`, history: [] },
  }
}

export const SIMULATED_CALL_PROCEDURE = {
  id: 'booking_sop',
  steps: [
    {
      id: 'ask_name',
      kind: 'clarification' as const,
      tool: null,
      arguments: {},
      after: [],
      required: true,
      critical: false,
    },
  ],
}

/** A simulated call (RUN) booking with a clarification step: every one of the five dimensions applies. */
export function simulatedCall(): JudgeScenarioFacts {
  return {
    ...judgeBooking(),
    interaction: 'multi_turn',
    simulation_goal: 'Book a table for two under Maya, then hang up.',
    expected: expectedOutcome({
      criteria: ['Confirms the time.'],
      tools: { required: [expectedToolCall('create_reservation', { party_size: 2 })], prohibited: [] },
      procedure: SIMULATED_CALL_PROCEDURE,
    }),
  }
}

export function bookingObserved(): JudgeObserved {
  return {
    observation: bookingObservation(),
    backend_messages: ['Reservation R-001 is confirmed for Maya.'],
    business_facts: {
      business_name: 'Juniper Table',
      hours: '11:00 a.m. to 10:00 p.m. daily',
      availability_overrides: [{ date: '2026-08-07', time: '21:00', party_size: 6, note: PRIVATE_SENTINEL }],
    },
  }
}

export function judgeOptions(
  api: FakeJudgeApi,
  extra: Partial<SemanticJudgeOptions> = {},
): SemanticJudgeOptions {
  return {
    enabled: true,
    mode: 'live',
    client: api.client,
    model: 'judge-model',
    reasoningEffort: 'medium',
    retry: { sleep: async () => {} },
    ...extra,
  }
}
