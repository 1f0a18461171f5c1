// The caller-experience checks (issue 22), beyond the reference's list and reported in the row's `checks`
// extension. Which decide task_completed (required when they apply) and which are reported only:
//   no_false_confirmation                  decides  (every phase, clean or faulted: a claimed success that did not
//                                                    happen is a failed task from the caller's side)
//   verification_after_implausible_result  decides  (only where the scenario expects it and a tool answered wrongly)
//   progress_statement_when_slow           reported (how a wait is filled is a quality, not the task)
//   dead_air_while_pending                 reported (timing: the line, the load and live latency move it)
// The final state under faults is the reference's application_state check, which decides as always.

import type { OutcomeCheck } from '../outcome.ts'
import { deadAirCheck } from './dead-air.ts'
import { noFalseConfirmationCheck } from './false-confirmation.ts'
import type { FaultCheckInput } from './input.ts'
import { progressCheck } from './progress.ts'
import { verificationCheck } from './verification.ts'

export type { FaultCheckInput } from './input.ts'

/** What an observation of any phase holds for the checks (RunObservation, SingleTurnObservation). */
type ObservedForChecks = Pick<
  FaultCheckInput,
  'transcript' | 'initial_application_state' | 'final_application_state' | 'faults' | 'experience'
> & { tool_executions: FaultCheckInput['executions'] }

/** The checks' input from an observation and the scenario's expectation and the run's silence limit. */
export function faultCheckInputOf(
  observation: ObservedForChecks,
  options: { expects_verification: boolean; max_dead_air_ms: number },
): FaultCheckInput {
  return {
    transcript: observation.transcript,
    executions: observation.tool_executions,
    initial_application_state: observation.initial_application_state,
    final_application_state: observation.final_application_state,
    faults: observation.faults ?? null,
    experience: observation.experience ?? null,
    ...options,
  }
}

export function callerExperienceChecks(input: FaultCheckInput): OutcomeCheck[] {
  return [
    noFalseConfirmationCheck({
      executions: input.executions,
      transcript: input.transcript,
      initial_application_state: input.initial_application_state,
      final_application_state: input.final_application_state,
    }),
    verificationCheck(input),
    progressCheck(input),
    deadAirCheck(input),
  ]
}
