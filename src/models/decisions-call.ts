// One Decisions API request (`client.decisions.create`) through the same limiter, retries and usage events as the
// structured Responses call. The API takes no `store` and no reasoning effort. An answer list that does not line up
// with the questions is "no structured decision": a caller reads answers by position and name.

import type { Decision, DecisionCreateParams } from 'openai/resources/decisions'
import { type ModelCallSettings, runModelCall } from './call-runner.ts'
import { ModelCallError } from './errors.ts'
import { type ModelUsageEvent, usageEvent } from './usage.ts'

export interface DecisionsCallRequest extends ModelCallSettings {
  input: DecisionCreateParams['input']
  questions: DecisionCreateParams['questions']
}

export interface DecisionsCallResult {
  decision: Decision
  usage: ModelUsageEvent
}

export async function callDecisions(request: DecisionsCallRequest): Promise<DecisionsCallResult> {
  const body: DecisionCreateParams = {
    model: request.model,
    input: request.input,
    questions: request.questions,
  }
  const ran = await runModelCall(request, (options) => request.client.decisions.create(body, options))
  const decision = ran.value
  const usage = usageEvent(
    { source: request.source, purpose: request.purpose, model: request.model },
    { latency_ms: ran.latency_ms, attempts: ran.attempts },
    decision?.usage,
  )
  const problem = misalignment(request.questions, decision)
  if (problem !== null) {
    throw new ModelCallError('no_structured_decision', problem, {
      model: request.model,
      purpose: request.purpose,
      attempts: ran.attempts,
    })
  }
  return { decision, usage }
}

function misalignment(
  questions: DecisionCreateParams['questions'],
  decision: Decision | undefined,
): string | null {
  if (!Array.isArray(decision?.answers)) return 'the answer held no answers list'
  if (decision.answers.length !== questions.length) {
    return `${decision.answers.length} answers came back for ${questions.length} questions`
  }
  for (const [index, answer] of decision.answers.entries()) {
    const asked = questions[index]
    const name = asked?.name ?? null
    if (answer.name !== name) {
      return `answer ${index} is named ${JSON.stringify(answer.name)}, but question ${index} is ${JSON.stringify(name)}`
    }
    if (answer.type !== 'refusal' && answer.type !== asked?.type) {
      return `answer ${index} (${JSON.stringify(name)}) is a ${answer.type}, but the question asked for a ${asked?.type}`
    }
  }
  return null
}
