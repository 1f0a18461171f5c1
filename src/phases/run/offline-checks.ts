// The offline RUN self-checks: on every offline call, the simulation must have tested what it claims to. A pass
// offline means something only if the scripted caller said a caller's words (never an agenda item's commitment or
// trigger, which the offline assistant would hear as a new request), no mutating tool ran twice for one request
// (what a spoken stage direction caused), and the call did not end with the assistant mid-utterance. A broken one
// makes the row an infrastructure_error at caller_simulation, so the test fails whatever the grade said: these are
// facts about the simulation, checked beside the grade, not a warning.
// Each sentence says what to change: a double call made by the author's own offline rules (defineAssistant
// `offline.rules`) points at those rules, and a call cut off at simulation.max_duration_seconds names that setting.
import { stableJson } from '../../artifacts/stable-json.ts'
import type { ToolExecution } from '../../observability/observation.ts'
import type { SimulationParameters } from '../../scenarios/simulation.ts'
import { spokenStageDirections } from './caller-lines.ts'
import type { OfflineConversation } from './conversation.ts'

// "Mutating" has one definition, shared with the graders (grading/run/step-evidence.ts).
export { isMutatingTool } from '../../grading/run/step-evidence.ts'

import { isMutatingTool } from '../../grading/run/step-evidence.ts'

/** Caller lines that say a stage direction of the agenda. */
export function spokenDirectionViolations(
  conversation: Pick<OfflineConversation, 'plan'>,
  agenda: SimulationParameters['agenda'],
): string[] {
  return conversation.plan.flatMap((utterance) =>
    spokenStageDirections(utterance.text, agenda).map(
      (direction) =>
        `the caller said the agenda's stage direction ${JSON.stringify(direction)} ("${utterance.text}")`,
    ),
  )
}

/**
 * Who scripted the offline assistant and the call's limit, so a broken self-check can say what to change.
 * Absent: the sentences name neither.
 */
export interface OfflineCallContext {
  /** The assistant's name when its offline behaviour is its author's own rules (defineAssistant); else null. */
  ownRulesOf: string | null
  /** simulation.max_duration_seconds. */
  maxDurationSeconds: number
}

/** Mutating tool calls made more than once with the same arguments (any status: each was an attempt). */
export function duplicateMutationViolations(
  executions: readonly ToolExecution[],
  ownRulesOf: string | null = null,
): string[] {
  const calls = new Map<string, string[]>()
  for (const execution of executions) {
    if (!isMutatingTool(execution.name)) continue
    const key = `${execution.name} ${stableJson(execution.arguments)}`
    calls.set(key, [...(calls.get(key) ?? []), execution.call_id])
  }
  return [...calls.entries()]
    .filter(([, ids]) => ids.length > 1)
    .map(([key, ids]) => {
      const made = `${ids.length} times (call ids ${ids.join(', ')})`
      if (ownRulesOf === null) return `the mutating call ${key} was made ${made}`
      // The rules, not the model, decided each call: a rule whose `when` also matches the caller's follow-up
      // ("yes, please", "thanks") calls again. Saying so sends the author to the rule instead of the harness.
      return (
        `assistant "${ownRulesOf}"'s offline rules made the mutating call ${key} ${made}: a rule's \`when\` ` +
        "probably also matches the caller's follow-up, so narrow it (a function `when` gets `earlier`, the call " +
        'so far). Offline runs stand in for your model with these rules, so this is about the rules, not your model'
      )
    })
}

/**
 * How the call ended. Required, so a caller cannot leave it out and lose, without a word, the sentence that names
 * max_duration_seconds.
 */
type CallEnding = Pick<OfflineConversation, 'termination_reason'>

/** The sentence for a call that ended mid-answer; at the duration limit it names the setting that cut it. */
function cutOffViolation(conversation: CallEnding, context: OfflineCallContext | undefined): string {
  const talking = 'the call ended while the assistant was still talking'
  if (conversation.termination_reason !== 'duration_limit' || context === undefined) return talking
  return (
    `${talking}: it reached simulation.max_duration_seconds (${context.maxDurationSeconds} s), which cut the ` +
    'assistant off mid-answer; raise simulation.max_duration_seconds so the call can end normally'
  )
}

/** Every self-check that failed on this offline call, each as a sentence; empty when the simulation held. */
export function offlineRunViolations(
  conversation: Pick<OfflineConversation, 'plan' | 'assistant_cut_off'> & CallEnding,
  agenda: SimulationParameters['agenda'],
  executions: readonly ToolExecution[],
  context?: OfflineCallContext,
): string[] {
  const violations = [
    ...spokenDirectionViolations(conversation, agenda),
    ...duplicateMutationViolations(executions, context?.ownRulesOf ?? null),
  ]
  if (conversation.assistant_cut_off) violations.push(cutOffViolation(conversation, context))
  return violations
}

/** The row's failure for broken self-checks; null when they all held. */
export function offlineSelfCheckFailure(
  violations: readonly string[],
): { stage: 'caller_simulation'; message: string } | null {
  if (violations.length === 0) return null
  return {
    stage: 'caller_simulation',
    message: `The offline RUN simulation did not hold, so this call proves nothing: ${violations.join('; ')}.`,
  }
}
