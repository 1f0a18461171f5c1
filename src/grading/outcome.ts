// Outcome assessment shared by all phases (§3.5): an ordered list of checks; the outcome passes iff no *required*
// check failed. Non-required checks stay visible as diagnostics (for example the tool contract in RUN).

import { completedExecutions, type ToolExecution, type TranscriptLine } from '../observability/observation.ts'
import { BEYOND_REFERENCE_CHECK_IDS } from '../reporting/extensions/checks.ts'
import type { AssessmentSummary } from '../reporting/result-schema.ts'
import { type ConversationEnd, conversationEndExplanation } from './conversation-end.ts'
import { isJsonObject, type JsonObject, jsonEqual } from './json-values.ts'
import { describeStateDifferences, type StateComparison, stateDifferences } from './state-differences.ts'

export type CheckStatus = 'passed' | 'failed' | 'not_applicable' | 'not_assessed'

export const OUTCOME_CHECK_IDS = [
  'conversation_completed',
  'assistant_responded',
  'application_state',
  'delegation_policy',
  'authorized_actions',
  'critical_procedure',
  'tool_contract',
  'verified_state_change',
  'grounded_assistant_response',
  'semantic_outcome',
  'semantic_requirements',
] as const

export type OutcomeCheckId = (typeof OUTCOME_CHECK_IDS)[number]

/**
 * Checks of ours beyond the reference's list. They decide the outcome like the reference's checks do, but the
 * reported assessment lists only the reference's (compactAssessment); ours are reported in the row's extension
 * block, so the reference's check list keeps its meaning.
 */
export type BeyondReferenceCheckId = (typeof BEYOND_REFERENCE_CHECK_IDS)[number]

const BEYOND_REFERENCE: ReadonlySet<string> = new Set(BEYOND_REFERENCE_CHECK_IDS)

export function isBeyondReferenceCheck(id: string): id is BeyondReferenceCheckId {
  return BEYOND_REFERENCE.has(id)
}

export interface OutcomeCheck {
  id: OutcomeCheckId | BeyondReferenceCheckId
  status: CheckStatus
  required: boolean
  reason: string
  evidence: Record<string, unknown>
}

export interface OutcomeAssessment {
  passed: boolean
  source: 'deterministic' | 'semantic_judge'
  rationale: string
  checks: OutcomeCheck[]
}

/** The facts the checks read; every phase fills them from its own grading. */
export interface OutcomeInput {
  conversation_completed: boolean
  /** How it ended, which a failed conversation_completed check names (absent: the check shows no evidence). */
  conversation_end?: ConversationEnd
  transcript: readonly Pick<TranscriptLine, 'role' | 'text' | 'start_ms'>[]
  expected_application_state: JsonObject | null
  outcome_state_satisfied: boolean | null
  /** The rules the state was checked by; a failed application_state check lists its differences by them. */
  state_comparison: StateComparison
  delegation_required: boolean
  delegation_prohibited: boolean
  delegation_observed: boolean
  prohibited_tool_call_count: number
  /** RUN scenarios whose procedure marks steps critical; single-turn scenarios have none. */
  has_critical_procedure_steps: boolean
  critical_procedure_passed: boolean | null
  /** What the critical steps showed (each violated step with what was counted); shown as the check's evidence. */
  critical_procedure_evidence?: Record<string, unknown>
  expected_tool_call_count: number
  matched_tool_call_count: number
  unexpected_completed_tool_invocation_count: number
  failed_tool_invocation_count: number
  initial_application_state: JsonObject
  final_application_state: JsonObject
  tool_executions: readonly Pick<ToolExecution, 'status' | 'completed_at_ms'>[]
  post_tool_assistant_text: string
}

export interface OutcomeOptions {
  /** CRAWL/WALK hold the assistant to the exact tool contract; RUN keeps it diagnostic. */
  strictTools: boolean
  /** The judge's task-completion verdict, when a judge ran; undefined or null otherwise. */
  semanticCompleted?: boolean | null
}

function check(
  id: OutcomeCheckId,
  required: boolean,
  outcome: boolean | null,
  reason: string,
  evidence: Record<string, unknown> = {},
): OutcomeCheck {
  const status: CheckStatus = outcome === null ? 'not_assessed' : outcome ? 'passed' : 'failed'
  return { id, status, required, reason, evidence }
}

function notApplicable(id: OutcomeCheckId, reason: string): OutcomeCheck {
  return { id, status: 'not_applicable', required: false, reason, evidence: {} }
}

/** When the last completed tool finished; null without a completed tool or without a time for every one. */
function lastCompletedToolMs(completed: OutcomeInput['tool_executions']): number | null {
  const completionTimes = completed.map((execution) => execution.completed_at_ms)
  // Without a time for every completed tool the order cannot be proven from the timeline.
  if (completionTimes.length === 0 || completionTimes.some((time) => time === null)) return null
  return Math.max(...(completionTimes as number[]))
}

/** An assistant utterance began at or after the last completed tool event, or speech was heard after the tools. */
function groundedResponseHeard(
  postToolText: string,
  lastToolMs: number | null,
  spoken: OutcomeInput['transcript'],
): boolean {
  if (postToolText.trim().length > 0) return true
  if (lastToolMs === null) return false
  return spoken.some((line) => line.start_ms !== null && line.start_ms >= lastToolMs)
}

export function assessOutcome(input: OutcomeInput, options: OutcomeOptions): OutcomeAssessment {
  const completed = completedExecutions(input.tool_executions)
  const completedTools = completed.length
  const lastToolMs = lastCompletedToolMs(completed)
  const spoken = input.transcript.filter((line) => line.role === 'assistant' && line.text.trim().length > 0)
  const expectedState = input.expected_application_state
  const expectsState = isJsonObject(expectedState) && Object.keys(expectedState).length > 0
  const delegationPolicyApplies = input.delegation_required || input.delegation_prohibited
  const stateChanged = !jsonEqual(input.initial_application_state, input.final_application_state)
  const semanticVerdict = options.semanticCompleted ?? null
  const conversationEnd = conversationEndExplanation(input.conversation_end, input.conversation_completed)
  const toolContractHeld =
    input.expected_tool_call_count === input.matched_tool_call_count &&
    input.unexpected_completed_tool_invocation_count === 0 &&
    input.failed_tool_invocation_count === 0

  const checks: OutcomeCheck[] = [
    check(
      'conversation_completed',
      true,
      input.conversation_completed,
      conversationEnd.reason,
      conversationEnd.evidence,
    ),
    check('assistant_responded', true, spoken.length > 0, 'The assistant must say something.', {
      assistant_lines: spoken.length,
    }),
    expectsState
      ? check(
          'application_state',
          true,
          input.outcome_state_satisfied,
          'The final state must match the expectation.',
          input.outcome_state_satisfied === false
            ? {
                differences: describeStateDifferences(
                  stateDifferences(
                    expectedState,
                    input.initial_application_state,
                    input.final_application_state,
                    input.state_comparison,
                  ),
                ),
              }
            : {},
        )
      : notApplicable('application_state', 'No expected application state.'),
    delegationPolicyApplies
      ? check(
          'delegation_policy',
          true,
          input.delegation_required ? input.delegation_observed : !input.delegation_observed,
          input.delegation_required ? 'Delegation is required.' : 'Delegation is forbidden.',
          { delegation_observed: input.delegation_observed },
        )
      : notApplicable('delegation_policy', 'Delegation is optional.'),
    check(
      'authorized_actions',
      true,
      input.prohibited_tool_call_count === 0,
      'No prohibited tool call may happen.',
      {
        prohibited_tool_call_count: input.prohibited_tool_call_count,
      },
    ),
    input.has_critical_procedure_steps
      ? check(
          'critical_procedure',
          true,
          input.critical_procedure_passed,
          'Every critical procedure step must pass in order.',
          input.critical_procedure_evidence ?? {},
        )
      : notApplicable('critical_procedure', 'The scenario has no critical procedure step.'),
    check(
      'tool_contract',
      options.strictTools,
      toolContractHeld,
      'Every expected tool must complete as expected, with no unexpected or failed execution.',
      {
        expected: input.expected_tool_call_count,
        matched: input.matched_tool_call_count,
        unexpected_completed: input.unexpected_completed_tool_invocation_count,
        failed: input.failed_tool_invocation_count,
      },
    ),
    stateChanged
      ? check(
          'verified_state_change',
          true,
          completedTools > 0,
          'A changed application state must come from a completed tool execution.',
          { completed_tool_executions: completedTools },
        )
      : notApplicable('verified_state_change', 'The application state did not change.'),
    completedTools > 0
      ? check(
          'grounded_assistant_response',
          true,
          groundedResponseHeard(input.post_tool_assistant_text, lastToolMs, spoken),
          'The assistant must speak after the last completed tool result.',
          { post_tool_assistant_text: input.post_tool_assistant_text, last_completed_tool_ms: lastToolMs },
        )
      : notApplicable('grounded_assistant_response', 'No tool completed.'),
    semanticVerdict === null
      ? check('semantic_outcome', false, null, 'The semantic judge did not run.')
      : check('semantic_outcome', true, semanticVerdict, 'The semantic judge must find the task completed.'),
    check('semantic_requirements', false, null, 'Semantic requirements are not assessed.'),
  ]

  return decided(checks, semanticVerdict === null ? 'deterministic' : 'semantic_judge')
}

function decided(checks: OutcomeCheck[], source: OutcomeAssessment['source']): OutcomeAssessment {
  const failedRequired = checks
    .filter((item) => item.required && item.status === 'failed')
    .map((item) => item.id)
  return {
    passed: failedRequired.length === 0,
    source,
    rationale:
      failedRequired.length === 0
        ? 'All required checks passed.'
        : `Required checks failed: ${failedRequired.join(', ')}.`,
    checks,
  }
}

/** The assessment with checks of ours beyond the reference's appended; a required one that failed fails it. */
export function withBeyondReferenceChecks(
  assessment: OutcomeAssessment,
  extra: readonly OutcomeCheck[],
): OutcomeAssessment {
  return decided([...assessment.checks, ...extra], assessment.source)
}

/**
 * The reported form (results.json `assessment`): reasons and evidence stay in the detailed artifacts, and only
 * the reference's checks are listed (ours beyond it are in the row's extension block; `passed` and the rationale
 * still count them, so the reported verdict is the one the test got).
 */
export function compactAssessment(assessment: OutcomeAssessment): AssessmentSummary {
  return {
    passed: assessment.passed,
    source: assessment.source,
    rationale: assessment.rationale,
    checks: assessment.checks
      .filter((check) => !isBeyondReferenceCheck(check.id))
      .map(({ id, status, required }) => ({ id, status, required })),
  }
}

/** The checks of ours beyond the reference's, as the row's extension block reports them. */
export function beyondReferenceChecks(
  assessment: OutcomeAssessment,
): (OutcomeCheck & { id: BeyondReferenceCheckId })[] {
  return assessment.checks.filter((check): check is OutcomeCheck & { id: BeyondReferenceCheckId } =>
    isBeyondReferenceCheck(check.id),
  )
}

/** Our checks as the row's `checks` extension reports them (id, status, required, reason, evidence); undefined without any. */
export function checksExtensionOf(assessment: OutcomeAssessment) {
  const checks = beyondReferenceChecks(assessment).map(({ id, status, required, reason, evidence }) => ({
    id,
    status,
    required,
    reason,
    evidence,
  }))
  return checks.length === 0 ? undefined : checks
}
