// What a live-evals test records in Vitest's task meta, and the type augmentations that make it (and our matchers)
// part of Vitest's types. Meta travels from the worker to the reporters as JSON, so everything here is plain data.
// Fields marked per-attempt are reset by the runner before each retry.
import type { Phase } from '../config/index.ts'
import type { RubricExpectation } from '../grading/judge/rubric-expectation.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { type LoadedScenario, scenarioType } from '../scenarios/index.ts'
import type { ToolCallExpectation } from './matcher-input.ts'
import type { TrialOfTest } from './plugin/trial-meta.ts'
import type { ScenarioRun } from './scenario-run.ts'
import type { AssistantArchitecture } from './settings.ts'

/** One matcher's verdict, as the reporter and `vitest --ui` show it. */
export interface MatcherGrade {
  matcher: 'toCompleteTask' | 'toMatchToolCalls' | 'toFollowDelegationPolicy' | 'toSatisfyRubric'
  /** What the matcher found (before `.not`). */
  passed: boolean
  /** Whether the assertion failed (`passed` flipped by `.not`): a failed assertion fails the row too. */
  assertion_failed: boolean
  /** The failure text Vitest shows for a failed assertion; null when it passed. */
  failure_text: string | null
  /** Ids of the checks that failed (outcome checks, dimensions, or the matcher's own check names). */
  failed_checks: string[]
  summary: string
}

export interface LiveEvalsTaskMeta {
  phase: Phase
  scenarioId: string
  scenarioType: string
  architecture: AssistantArchitecture
  /** Where the scenario came from: its dataset file, or the spec file that wrote it inline; null when unknown. */
  source: string | null
  /**
   * The assistant under test's name (defineAssistant's `name`, or the bundled example's); it goes on the row.
   * Absent in meta of tests not built by scenarioSuite (a regrade, an older blob report).
   */
  assistant?: string
  /** The run directory this test's row belongs to (one per architecture). */
  runDirectory: string
  /**
   * The spec declared this scenario must fail on these required checks (scenarioSuite's expectedFailures); the
   * verdict passes the test only when the row failed on exactly them. Absent: the scenario must pass.
   */
  expectedFailure?: { checks: string[] }
  /**
   * Set when another spec file evaluated this scenario and trial into the same run first (src/vitest/
   * scenario-claim.ts): the spec file that ran it (null when its claim could not be read) and this test's own, both
   * absolute. The test fails and gives no row: the scenario's row is the first one's; the reporter marks the run's
   * results.json incomplete with both (reporters/duplicate-scenarios.ts).
   */
  duplicateOf?: { firstSpecFile: string | null; specFile: string }
  /**
   * The recording the scenario's caller source plays (WALK), as its row echoes it; set with the test's scenario
   * environment, before anything of the scenario runs. The reporter puts it on every row of the test made without
   * the execution's (the request could not be read, the session failed, the test timed out), so such a row still
   * counts under its condition (reporters/run-results.ts).
   */
  recording?: NonNullable<ResultItem['recording']>
  /** Per-attempt: 0 for the first try, n for the n-th retry. */
  attempt: number
  /** Per-attempt: the grades matchers recorded. */
  grades: MatcherGrade[]
  /** Per-attempt: the validated results.json row of this execution; null until the scenario ran. */
  row: ResultItem | null
  /** Per-attempt: set once the verdict made the row final; nothing may change the row after it. */
  sealed: boolean
}

/**
 * A scenario matcher's signature where the received value is an executed scenario (the liveSession fixture, or
 * `any`); on anything else the matcher cannot grade it and the call is a type error naming what it wants.
 */
type OnScenarioRun<T, Signature> = [T] extends [ScenarioRun]
  ? Signature
  : // No value is assignable to `never`: the call fails to type-check, and the parameter's name says why.
    (scenarioMatchersGradeOnlyTheLiveSessionFixture: never) => never

declare module 'vitest' {
  interface TaskMeta {
    liveEvals?: LiveEvalsTaskMeta
  }

  // Type parameters must repeat Vitest's declaration exactly for the interfaces to merge.
  interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown> {
    /** The scenario's task was completed: every required outcome check passed. */
    toCompleteTask: OnScenarioRun<T, () => R>
    /**
     * The requested tool calls match `expected` (default: the scenario's required tools) in order and arguments
     * (a subset: the arguments named must match, others are free; none given matches any call of that name).
     * A conversation (RUN) matches completed executions one to one, in any order.
     */
    toMatchToolCalls: OnScenarioRun<T, (expected?: readonly ToolCallExpectation[]) => R>
    /** The assistant delegated when the scenario requires it and did not when the scenario forbids it. */
    toFollowDelegationPolicy: OnScenarioRun<T, () => R>
    /** The semantic judge's grades meet `expectation` (default: task_understanding passed); see RubricExpectation. */
    toSatisfyRubric: OnScenarioRun<T, (expectation?: RubricExpectation) => R>
  }
}

/** Fresh meta for a scenario test, given at collection so reporters know the test before it runs. */
export function initialMeta(
  fields: Omit<LiveEvalsTaskMeta, 'attempt' | 'grades' | 'row' | 'sealed' | 'source'> & { source?: string },
): LiveEvalsTaskMeta {
  return { ...fields, source: fields.source ?? null, attempt: 0, grades: [], row: null, sealed: false }
}

/**
 * The meta of a scenario test at collection (scenarioSuite's, and a re-run's of `live-evals explain`): its
 * live-evals fields, and its trial in a trials run.
 */
export function scenarioTestMeta(
  fields: Omit<Parameters<typeof initialMeta>[0], 'scenarioId' | 'scenarioType'> & {
    scenario: LoadedScenario
  },
  trial: TrialOfTest | null,
): { liveEvals: LiveEvalsTaskMeta; liveEvalsTrial?: TrialOfTest } {
  const { scenario, ...rest } = fields
  return {
    liveEvals: initialMeta({ ...rest, scenarioId: scenario.id, scenarioType: scenarioType(scenario) }),
    ...(trial === null ? {} : { liveEvalsTrial: trial }),
  }
}

/** Clears what one attempt recorded, so a retry reports only its own grades and row. */
export function resetAttemptMeta(meta: LiveEvalsTaskMeta, attempt: number): void {
  meta.attempt = attempt
  meta.grades = []
  meta.row = null
  meta.sealed = false
}
