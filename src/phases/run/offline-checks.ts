// The offline RUN self-checks: on every offline call, the simulation must have tested what it claims to. A pass
// offline means something only if the scripted caller said a caller's words (never an agenda item's commitment or
// trigger, which the offline assistant would hear as a new request), no mutating tool ran twice for one request
// (what a spoken stage direction caused), and the call did not end with the assistant mid-utterance. A broken one
// makes the row an infrastructure_error at caller_simulation, so the test fails whatever the grade said: these are
// facts about the simulation, checked beside the grade, not a warning.
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

/** Mutating tool calls made more than once with the same arguments (any status: each was an attempt). */
export function duplicateMutationViolations(executions: readonly ToolExecution[]): string[] {
  const calls = new Map<string, string[]>()
  for (const execution of executions) {
    if (!isMutatingTool(execution.name)) continue
    const key = `${execution.name} ${stableJson(execution.arguments)}`
    calls.set(key, [...(calls.get(key) ?? []), execution.call_id])
  }
  return [...calls.entries()]
    .filter(([, ids]) => ids.length > 1)
    .map(([key, ids]) => `the mutating call ${key} was made ${ids.length} times (call ids ${ids.join(', ')})`)
}

/** Every self-check that failed on this offline call, each as a sentence; empty when the simulation held. */
export function offlineRunViolations(
  conversation: Pick<OfflineConversation, 'plan' | 'assistant_cut_off'>,
  agenda: SimulationParameters['agenda'],
  executions: readonly ToolExecution[],
): string[] {
  const violations = [
    ...spokenDirectionViolations(conversation, agenda),
    ...duplicateMutationViolations(executions),
  ]
  if (conversation.assistant_cut_off) violations.push('the call ended while the assistant was still talking')
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
