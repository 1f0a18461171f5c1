// The scenario matchers. Each grades the executed scenario with src/grading (never by its own rules), records its
// grade in the test's meta, and on failure names the failed checks and shows the evidence, so a red test explains
// itself without opening the artifacts. Registered with expect.extend by the project's setup file.
import type { MatcherState } from 'vitest'
import { delegationDecisionPassed } from '../grading/dimensions.ts'
import { type RubricExpectation, rubricVerdict } from '../grading/judge/rubric-expectation.ts'
import { expectedArgumentsMatch } from '../grading/matching.ts'
import { gradeRunToolEvidence } from '../grading/run/tool-evidence.ts'
import { computeToolCallGrade } from '../grading/tool-grade.ts'
import type { ExpectedToolCall } from '../scenarios/index.ts'
import { parseToolCallExpectations } from './matcher-input.ts'
import type { MatcherGrade } from './meta.ts'
import { isScenarioRun, recordGrade, type ScenarioRun } from './scenario-run.ts'

type ToolCallLike = Pick<ExpectedToolCall, 'name' | 'arguments'>

interface MatcherOutcome {
  pass: boolean
  message: () => string
}

const json = (value: unknown) => JSON.stringify(value)

function notARun(matcher: string, received: unknown): MatcherOutcome {
  return {
    pass: false,
    message: () =>
      `${matcher} grades the value of the liveSession fixture (an executed scenario); got ${typeof received}`,
  }
}

function heading(run: ScenarioRun): string {
  return `Scenario ${run.scenarioId} (${run.architecture} assistant)`
}

function infrastructureText(run: ScenarioRun): string {
  const failure = run.failure ?? { stage: 'unknown', message: 'nothing was observed' }
  return `${heading(run)} failed before it could be graded, at stage ${failure.stage}: ${failure.message}`
}

/**
 * Records the grade, then returns the result Vitest expects (it flips `pass` for `.not` itself). A failed
 * assertion's text is built once, here, so the verdict can tell this matcher's error from other failures.
 */
function finish(
  this: MatcherState,
  run: ScenarioRun,
  found: Omit<MatcherGrade, 'assertion_failed' | 'failure_text'>,
  failureText: () => string,
): MatcherOutcome {
  const assertionFailed = found.passed === Boolean(this.isNot)
  const text = !assertionFailed
    ? null
    : this.isNot
      ? `${heading(run)}: expected ${found.matcher} to fail, but ${found.summary}`
      : failureText()
  recordGrade(run, { ...found, assertion_failed: assertionFailed, failure_text: text })
  return { pass: found.passed, message: () => text ?? `${heading(run)}: ${found.summary}` }
}

/** A run that failed before anything could be graded: the matcher fails with the infrastructure error. */
function notGraded(
  this: MatcherState,
  run: ScenarioRun,
  matcher: MatcherGrade['matcher'],
  failedCheck: string,
): MatcherOutcome {
  return finish.call(
    this,
    run,
    { matcher, passed: false, failed_checks: [failedCheck], summary: 'not graded' },
    () => infrastructureText(run),
  )
}

/**
 * The tool calls a run shows in its failure text: what the assistant requested in a single turn, what the
 * application executed in a conversation (RUN grades executions, not requests).
 */
function toolCallsShown(run: ScenarioRun): string {
  if (run.observation === null) return 'requested tool calls: (nothing observed)'
  if (run.interaction === 'single_turn')
    return `requested tool calls: ${json(run.observation.requested_tool_calls)}`
  const executions = run.observation.tool_executions.map(({ name, arguments: args, status }) => ({
    name,
    arguments: args,
    status,
  }))
  return `executed tool calls: ${json(executions)}`
}

function assistantSpeech(run: ScenarioRun): string {
  const lines = run.observation?.transcript.filter((line) => line.role === 'assistant') ?? []
  return lines.length === 0 ? '(the assistant said nothing)' : lines.map((line) => `"${line.text}"`).join(' ')
}

/**
 * A failed check's evidence as console lines: the differing state paths when the grader listed them (not the
 * whole expected, initial and final states on one line; those stay in the details artifact), else its JSON.
 */
function evidenceLines(label: string, reason: string, evidence: Record<string, unknown>): string[] {
  const differences = evidence.differences
  if (Array.isArray(differences) && differences.length > 0) {
    return [
      `  ${label}: ${reason} Differences (expected vs final):`,
      ...differences.map((line) => `    ${line}`),
    ]
  }
  return [`  ${label}: ${reason} evidence ${json(evidence)}`]
}

function toCompleteTask(this: MatcherState, received: unknown): MatcherOutcome {
  if (!isScenarioRun(received)) return notARun('toCompleteTask', received)
  const run = received
  const grade = run.grade
  if (grade === null || run.observation === null) {
    return notGraded.call(this, run, 'toCompleteTask', `infrastructure:${run.failure?.stage ?? 'unknown'}`)
  }
  const failedChecks = grade.assessment.checks.filter((check) => check.required && check.status === 'failed')
  // RUN decides from its checks alone (§3.6); the single-turn deterministic dimensions are CRAWL/WALK's.
  const failedDimensions =
    run.interaction === 'single_turn' && run.grade !== null
      ? Object.entries(run.grade.dimension_grades).filter(([, dimension]) => dimension.status === 'failed')
      : []
  const failedIds = [
    ...failedChecks.map((check) => check.id),
    ...failedDimensions.map(([name]) => `dimension:${name}`),
  ]
  const infrastructure = run.failure === null ? [] : [`infrastructure:${run.failure.stage}`]
  const observation = run.observation
  // Built only when Vitest shows the failure: a passing test never pays for the evidence dump.
  const failureText = () =>
    [
      `${heading(run)} did not complete the task. Failed checks: ${[...infrastructure, ...failedIds].join(', ') || '(none recorded)'}`,
      ...(run.failure === null
        ? []
        : [`  execution failure at stage ${run.failure.stage}: ${run.failure.message}`]),
      ...failedChecks.flatMap((check) => evidenceLines(check.id, check.reason, check.evidence)),
      ...failedDimensions.flatMap(([name, dimension]) =>
        evidenceLines(`dimension ${name}`, dimension.rationale, dimension.evidence),
      ),
      `  termination: ${observation.termination_reason ?? 'unknown'}`,
      `  ${toolCallsShown(run)}`,
      `  assistant said: ${assistantSpeech(run)}`,
    ].join('\n')
  return finish.call(
    this,
    run,
    {
      matcher: 'toCompleteTask',
      passed: grade.task_completed,
      failed_checks: [...infrastructure, ...failedIds],
      summary: grade.task_completed ? 'every required check passed' : grade.assessment.rationale,
    },
    failureText,
  )
}

/** Where the requested calls first differ from the expected ones, in words. */
function toolCallDifferences(calls: readonly ToolCallLike[], expected: readonly ToolCallLike[]): string[] {
  const differences: string[] = []
  if (calls.length !== expected.length)
    differences.push(`expected ${expected.length} call(s), the assistant requested ${calls.length}`)
  expected.forEach((expectation, index) => {
    const call = calls[index]
    if (call === undefined) differences.push(`call ${index + 1}: missing ${expectation.name}`)
    else if (call.name !== expectation.name)
      differences.push(`call ${index + 1}: expected ${expectation.name}, got ${call.name}`)
    else if (!expectedArgumentsMatch(expectation.arguments, call.arguments))
      differences.push(
        `call ${index + 1} (${call.name}): arguments ${json(call.arguments)} do not contain ${json(expectation.arguments)}`,
      )
  })
  calls.slice(expected.length).forEach((call, offset) => {
    differences.push(`call ${expected.length + offset + 1}: unexpected ${call.name} ${json(call.arguments)}`)
  })
  return differences
}

/**
 * The expected calls (default: the scenario's required ones) against what the assistant did. A single turn
 * compares its requested calls in order (reference §3.3); a conversation matches the completed executions one
 * to one in any order (§3.6), since a caller may reach them in any order.
 */
function toMatchToolCalls(this: MatcherState, received: unknown, expected?: unknown): MatcherOutcome {
  if (!isScenarioRun(received)) return notARun('toMatchToolCalls', received)
  const run = received
  const given = expected === undefined ? null : parseToolCallExpectations(expected)
  // Not a grade (nor one `.not` could flip): what was written cannot be compared, so the test fails with it.
  if (given !== null && !given.ok)
    throw new TypeError(`toMatchToolCalls cannot grade these expected calls: ${given.problem}`)
  if (run.observation === null) return notGraded.call(this, run, 'toMatchToolCalls', 'tool_calls_observed')
  const wanted: readonly ExpectedToolCall[] = given?.calls ?? run.expected.tools.required
  if (run.interaction === 'multi_turn') {
    const required = wanted.map(({ name, arguments: args, status }) => ({ name, arguments: args, status }))
    const evidence = gradeRunToolEvidence({ required, prohibited: [] }, run.observation.tool_executions)
    const passed = evidence.matched_tool_call_count === required.length
    return finish.call(
      this,
      run,
      {
        matcher: 'toMatchToolCalls',
        passed,
        failed_checks: passed ? [] : ['tool_call_coverage'],
        summary: `${evidence.matched_tool_call_count} of ${required.length} expected call(s) executed as expected`,
      },
      () =>
        [
          `${heading(run)}: ${evidence.matched_tool_call_count} of ${required.length} expected tool call(s) executed with the expected status (matched one to one, any order). Failed checks: tool_call_coverage`,
          `  expected: ${json(wanted)}`,
          `  ${toolCallsShown(run)}`,
        ].join('\n'),
    )
  }
  const observation = run.observation
  const toolGrade = computeToolCallGrade(observation.requested_tool_calls, wanted)
  const failedChecks = [
    ...(toolGrade.tool_call_correctness === 0 ? ['tool_call_correctness'] : []),
    ...(toolGrade.tool_call_arg_correctness === 0 ? ['tool_call_arg_correctness'] : []),
  ]
  return finish.call(
    this,
    run,
    {
      matcher: 'toMatchToolCalls',
      passed: toolGrade.grade === 1,
      failed_checks: failedChecks,
      summary: toolGrade.grade === 1 ? 'the requested tool calls match' : 'the requested tool calls differ',
    },
    () =>
      [
        `${heading(run)}: the requested tool calls do not match. Failed checks: ${failedChecks.join(', ')}`,
        ...toolCallDifferences(observation.requested_tool_calls, wanted).map((line) => `  ${line}`),
        `  expected: ${json(wanted)}`,
        `  requested: ${json(observation.requested_tool_calls)}`,
      ].join('\n'),
  )
}

function toFollowDelegationPolicy(this: MatcherState, received: unknown): MatcherOutcome {
  if (!isScenarioRun(received)) return notARun('toFollowDelegationPolicy', received)
  const run = received
  const observation = run.observation
  if (observation === null) return notGraded.call(this, run, 'toFollowDelegationPolicy', 'delegation_policy')
  const policy = run.expected.delegation
  const delegations = new Set(observation.delegation_ids).size
  const passed = delegationDecisionPassed(policy, delegations)
  return finish.call(
    this,
    run,
    {
      matcher: 'toFollowDelegationPolicy',
      passed,
      failed_checks: passed ? [] : ['delegation_policy'],
      summary: `delegation is ${policy} and the assistant delegated ${delegations} time(s)`,
    },
    () =>
      [
        `${heading(run)}: delegation is ${policy}, but the assistant delegated ${delegations} time(s). Failed checks: delegation_policy`,
        `  delegation ids: ${json(observation.delegation_ids)}`,
        `  ${toolCallsShown(run)}`,
        `  assistant said: ${assistantSpeech(run)}`,
      ].join('\n'),
  )
}

/**
 * The semantic judge's grades meet the expectation (rubric-expectation.ts decides it). A judge that failed is the
 * run's infrastructure failure; a judge that never ran fails the matcher unless the test allows it.
 */
function toSatisfyRubric(
  this: MatcherState,
  received: unknown,
  expectation?: RubricExpectation,
): MatcherOutcome {
  if (!isScenarioRun(received)) return notARun('toSatisfyRubric', received)
  const run = received
  const grade = run.grade
  if (grade === null || run.failure !== null) {
    return notGraded.call(this, run, 'toSatisfyRubric', `infrastructure:${run.failure?.stage ?? 'unknown'}`)
  }
  const verdict = rubricVerdict(grade.semantic_grades, grade.semantic_quality, expectation)
  const scores = Object.entries(grade.semantic_grades)
    .filter(([, dimension]) => dimension.status !== 'not_applicable')
    .map(
      ([name, dimension]) =>
        `${name} ${dimension.status}${dimension.score === null ? '' : ` ${dimension.score}`}`,
    )
  return finish.call(
    this,
    run,
    {
      matcher: 'toSatisfyRubric',
      passed: verdict.passed,
      failed_checks: verdict.shortfalls.map((shortfall) => shortfall.id),
      summary: verdict.summary,
    },
    () =>
      [
        `${heading(run)} does not satisfy the rubric. Failed checks: ${verdict.shortfalls.map((item) => item.id).join(', ')}`,
        ...verdict.shortfalls.map((shortfall) => `  ${shortfall.id}: ${shortfall.reason}`),
        `  judged: ${scores.join(', ') || '(no dimension applies)'}; semantic_quality ${grade.semantic_quality.score}`,
        `  assistant said: ${assistantSpeech(run)}`,
      ].join('\n'),
  )
}

export const scenarioMatchers = {
  toCompleteTask,
  toMatchToolCalls,
  toFollowDelegationPolicy,
  toSatisfyRubric,
}
