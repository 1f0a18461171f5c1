// The voice failure classes, read from what the interventions did, never from a judge. A failure that an
// intervention fixes takes that intervention's class: clean audio or a perfect hearing fixed it, so the
// assistant misheard; removing a barge-in fixed it, so it was turn-taking; and so on. When no applicable
// intervention changes the outcome, the upstream causes they test are ruled out and what the unchanged re-runs
// still fail names the class: the right tool with wrong arguments (tool_arguments) or a wrong final state
// (state). Anything else stays `unexplained`: no guess.
import type { FailureClass, InterventionId, Rerun } from './schema.ts'

const CLASS_OF_INTERVENTION: Record<InterventionId, FailureClass> = {
  clean_audio: 'mishearing',
  text_for_audio: 'mishearing',
  remove_barge_in: 'turn_taking',
  suppress_delegation: 'delegation_decision',
  force_delegation: 'delegation_decision',
  correct_tool_result: 'backend_fault_handling',
  faults_off: 'backend_fault_handling',
}

export function classOfIntervention(intervention: InterventionId): FailureClass {
  return CLASS_OF_INTERVENTION[intervention]
}

const PHRASES: Record<FailureClass, string> = {
  mishearing: 'a hearing failure',
  turn_taking: 'a turn-taking failure',
  delegation_decision: 'a delegation-decision failure',
  tool_arguments: 'a tool-arguments failure',
  backend_fault_handling: 'a backend-fault-handling failure',
  state: 'a state failure',
  unexplained: 'no class',
  not_reproduced: 'a failure that did not reproduce',
}

export function classPhrase(failureClass: FailureClass): string {
  return PHRASES[failureClass]
}

/** Checks and dimensions that say the final application state is wrong (single-turn and RUN names). */
const STATE_FAILURES = new Set([
  'final_state',
  'application_state',
  'verified_state_change',
  'no_unexpected_side_effects',
])

/**
 * The class of what the unchanged re-runs still fail, when no intervention changed the outcome: the right tool
 * called with wrong arguments, else a wrong final state, else none. A wrong or missing tool call is named but
 * not classed: the state it leaves wrong follows from it, and no intervention tested why it was chosen.
 */
export function remainingClass(reruns: readonly Rerun[]): { class: FailureClass; because: string | null } {
  const failed = reruns.filter((rerun) => rerun.status === 'failed')
  const dimensions = new Set(failed.flatMap((rerun) => rerun.failed_dimensions))
  const checks = new Set(failed.flatMap((rerun) => rerun.failed_checks))
  if (dimensions.has('tool_selection')) {
    return { class: 'unexplained', because: 'tool_selection (a wrong or missing tool call)' }
  }
  if (dimensions.has('parameter_accuracy')) {
    return { class: 'tool_arguments', because: 'parameter_accuracy (the right tool, wrong arguments)' }
  }
  const state = [...new Set([...dimensions, ...checks])].filter((id) => STATE_FAILURES.has(id)).sort()
  if (state.length > 0) return { class: 'state', because: state.join(', ') }
  return { class: 'unexplained', because: null }
}

/**
 * Checks of the scenario's expected outcome: its final state and its expected tool calls (and the default body's
 * assertions over them). Without a fault they cannot hold when the scenario was written for the fault (a booking
 * that timed out must leave the state unchanged; without the timeout it is made), so a fault arm's re-run may fail
 * them without the run's failure coming back.
 */
const EXPECTED_OUTCOME_CHECKS = new Set([
  'application_state',
  'verified_state_change',
  'no_unexpected_side_effects',
  'tool_contract',
  'assertion:toMatchToolCalls',
  'assertion:toCompleteTask',
])

/** The umbrella assertion every failed row carries: not a failure of its own. */
const TASK_ASSERTION = 'assertion:toCompleteTask'

/**
 * Whether a re-run no longer has the run's failure: none of the checks the run failed fails, and whatever else
 * fails is the scenario's expected outcome. A run whose only failure was the umbrella assertion has nothing
 * particular to resolve: then only a pass resolves it.
 */
export function failureResolved(
  rerun: Pick<Rerun, 'status' | 'failed_checks'>,
  runFailedChecks: readonly string[],
): boolean | null {
  if (rerun.status === 'infrastructure_error') return null
  const original = runFailedChecks.filter((check) => check !== TASK_ASSERTION)
  if (original.length === 0) return rerun.status === 'passed'
  return rerun.failed_checks.every((check) => !original.includes(check) && EXPECTED_OUTCOME_CHECKS.has(check))
}
