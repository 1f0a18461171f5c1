// The dress rehearsal's completion observer: how the rehearsal server answers a live RUN's observer requests
// (`POST /v1/responses` with the `completion_decision` text format, src/phases/run/live/observer-call.ts). It
// judges from the evidence the request carries, as the model is asked to, and never says "done" by default:
//
// - delegated work still running: not finished;
// - the caller has not said goodbye (its latest turn is no farewell): not finished;
// - the application holds the expected state (the RUN rule, runOutcomeVerified, recomputed from the states it
//   was given, not taken from the request's own flag): resolved;
// - nothing changed and the assistant said it cannot do it: a final refusal;
// - anything else (a goodbye over a state that is not the expected one): unresolved, so the call runs on to its
//   limit and is graded as the failure it is.

import { z } from 'zod'
import { runOutcomeVerified } from '../../grading/final-state.ts'
import { isJsonObject, jsonEqual } from '../../grading/json-values.ts'
import {
  type CompletionDecision,
  CompletionDecisionSchema,
  type ObserverInput,
} from '../../phases/run/live/observer-call.ts'
import type { ScriptedResponse } from '../../testing/responses-server/responses-route.ts'
import { type ResponsesRequest, structuredAnswer } from '../../testing/responses-server/responses-route.ts'

/** The text format name the observer's structured call uses (observer-call.ts schemaName). */
export const OBSERVER_FORMAT_NAME = 'completion_decision'

/** A caller's goodbye; "thanks" alone is no farewell here (callers thank the assistant mid-call too). */
const GOODBYE = /\b(?:good)?bye\b/i

/** How an assistant says it will not or cannot do what was asked. */
const REFUSAL = /\b(?:can(?:no|')t|cannot|unable|not able|won't be able|isn't possible|not possible)\b/i

const decision = (should: boolean, outcome: CompletionDecision['outcome'], reason: string) =>
  CompletionDecisionSchema.parse({ should_drain: should, outcome, reason })

export function observerDecision(input: JudgedEvidence): CompletionDecision {
  if (input.assistant_work_pending) {
    return decision(false, 'unresolved', "The assistant's delegated work is still running.")
  }
  const lastCaller = input.conversation.findLast((turn) => turn.role === 'user')
  if (lastCaller === undefined || !GOODBYE.test(lastCaller.text)) {
    return decision(false, 'unresolved', 'The caller has not closed the call yet.')
  }
  const expected = input.expected_application_state
  const initial = input.initial_application_state
  const observed = input.observed_application_state
  if (Object.keys(expected).length === 0) {
    return decision(true, 'resolved', 'No state was expected and the caller said goodbye.')
  }
  if (runOutcomeVerified(expected, initial, observed)) {
    return decision(true, 'resolved', 'The application holds the expected state and the caller said goodbye.')
  }
  const refused = input.conversation.some((turn) => turn.role === 'assistant' && REFUSAL.test(turn.text))
  if (refused && jsonEqual(initial, observed)) {
    return decision(true, 'refused', 'The assistant refused, nothing changed, and the caller said goodbye.')
  }
  return decision(
    false,
    'unresolved',
    'The caller said goodbye, but the application does not hold the expected state.',
  )
}

/** The parts of the observer's evidence this judge reads; a request without them gets no verdict. */
const JudgedEvidence = z.looseObject({
  assistant_work_pending: z.boolean(),
  expected_application_state: z.record(z.string(), z.unknown()),
  initial_application_state: z.record(z.string(), z.unknown()),
  observed_application_state: z.record(z.string(), z.unknown()),
  conversation: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), text: z.string() })),
})
type JudgedEvidence = Pick<
  ObserverInput,
  | 'assistant_work_pending'
  | 'expected_application_state'
  | 'initial_application_state'
  | 'observed_application_state'
> & { conversation: readonly { role: 'user' | 'assistant'; text: string }[] }

/** The observer's input from its request: the user message is the evidence as JSON (observer-call.ts). */
function observerInputOf(request: ResponsesRequest): JudgedEvidence | null {
  const input = request.input
  if (!Array.isArray(input)) return null
  const user = input.find((item) => item.role === 'user')
  if (typeof user?.content !== 'string') return null
  try {
    const parsed = JudgedEvidence.safeParse(JSON.parse(user.content))
    return parsed.success ? (parsed.data as JudgedEvidence) : null
  } catch {
    return null
  }
}

/** Whether a Responses request is the completion observer's (its structured format is named for it). */
export function isObserverRequest(request: ResponsesRequest): boolean {
  const format = request.text?.format
  return isJsonObject(format) && format.name === OBSERVER_FORMAT_NAME
}

/** The scripted answer to an observer request; undefined for any other request (another player answers it). */
export function observerAnswer(request: ResponsesRequest): ScriptedResponse | undefined {
  if (!isObserverRequest(request)) return undefined
  const input = observerInputOf(request)
  if (input === null) {
    return structuredAnswer(
      decision(false, 'unresolved', 'The observer request carried no evidence to judge.'),
    )
  }
  return structuredAnswer(observerDecision(input))
}
