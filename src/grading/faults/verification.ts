// Check `verification_after_implausible_result` (issue 22): when a tool answered plausibly but wrongly (a
// wrong_data fault that altered something) and the scenario expects a verification (tag `expects_verification`),
// the assistant must call that tool again after the altered answer, before the call ends. Required when it
// applies, so it decides task_completed: a scenario written to expect the check is failed without it.
import type { OutcomeCheck } from '../outcome.ts'
import type { FaultCheckInput } from './input.ts'

export const VERIFICATION_CHECK_ID = 'verification_after_implausible_result'

export function verificationCheck(input: FaultCheckInput): OutcomeCheck {
  const altered = input.executions
    .map((execution, order) => ({ execution, order }))
    .filter(
      ({ execution }) => execution.fault?.kind === 'wrong_data' && (execution.fault.changed ?? []).length > 0,
    )
  if (!input.expects_verification || altered.length === 0) {
    return {
      id: VERIFICATION_CHECK_ID,
      status: 'not_applicable',
      required: false,
      reason: input.expects_verification
        ? 'no tool answered implausibly in this call'
        : 'the scenario does not expect a verification call',
      evidence: { implausible_calls: altered.map(({ execution }) => execution.call_id) },
    }
  }
  const unverified = altered.filter(
    ({ execution, order }) =>
      !input.executions.some(
        (later, laterOrder) =>
          laterOrder > order && later.name === execution.name && later.status === 'completed',
      ),
  )
  const evidence = {
    implausible_calls: altered.map(({ execution }) => ({
      call_id: execution.call_id,
      name: execution.name,
      changed: execution.fault?.changed ?? [],
    })),
    unverified: unverified.map(({ execution }) => execution.call_id),
  }
  return {
    id: VERIFICATION_CHECK_ID,
    status: unverified.length === 0 ? 'passed' : 'failed',
    required: true,
    reason:
      unverified.length === 0
        ? 'every implausible result was checked again with a second call'
        : `the assistant relied on an implausible result without checking it again: ${unverified.map(({ execution }) => `${execution.name} (${execution.call_id})`).join(', ')}`,
    evidence,
  }
}
