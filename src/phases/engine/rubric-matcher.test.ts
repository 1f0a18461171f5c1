// toSatisfyRubric over grades the judge stage produced from the loopback fake OpenAI server (real openai client,
// real HTTP), and its failure turned into a failed required `assertion:toSatisfyRubric` check by the one-verdict
// rule, like every other matcher.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadPhaseConfig } from '../../config/index.ts'
import {
  bookingObserved,
  type FakeJudgeApi,
  failing,
  judgeBooking,
  judgeOptions,
  passing,
  startFakeJudgeApi,
} from '../../grading/judge/judge.test-helpers.ts'
import { judgeOptionsFromSettings } from '../../grading/judge/options-from-settings.ts'
import { rubricVerdict } from '../../grading/judge/rubric-expectation.ts'
import { judgeTimeBudgetMs } from '../../grading/judge/time-budget.ts'
import { gradeSingleTurn } from '../../grading/single-turn.ts'
import { buildResultRow, NO_ARTIFACTS } from '../../reporting/result-item.ts'
import { scenarioMatchers } from '../../vitest/matchers.ts'
import { initialMeta, type LiveEvalsTaskMeta } from '../../vitest/meta.ts'
import { bindRunToMeta, type ScenarioRun } from '../../vitest/scenario-run.ts'
import { verdictOf } from '../../vitest/verdict.ts'
import { judgeGrade } from './judge-stage.ts'

expect.extend(scenarioMatchers)

let api: FakeJudgeApi

beforeAll(async () => {
  api = await startFakeJudgeApi()
})
afterAll(() => api?.close())

const facts = judgeBooking()

async function judgedRun(judge: boolean): Promise<{ run: ScenarioRun; meta: LiveEvalsTaskMeta }> {
  const observed = bookingObserved()
  const deterministic = gradeSingleTurn(observed.observation, facts)
  const { grade, semantic } = await judgeGrade(
    facts,
    deterministic,
    observed,
    judge ? judgeOptions(api) : null,
  )
  const row = buildResultRow({
    scenario_id: facts.scenario_id,
    raw_status: semantic.failure === null ? 'ok' : 'failed',
    task_completed: grade.task_completed,
    semantic_quality: grade.semantic_quality,
    evidence: grade.evidence,
    audio: null,
    consumption: { frontend: {}, backend: {} },
    artifacts: NO_ARTIFACTS,
    error: semantic.failure,
    assessment: {
      passed: grade.assessment.passed,
      source: grade.assessment.source,
      rationale: '',
      checks: [],
    },
  })
  const run: ScenarioRun = {
    interaction: 'single_turn',
    scenarioId: facts.scenario_id,
    architecture: 'responses',
    expected: facts.expected,
    observation: observed.observation,
    grade,
    failure: semantic.failure,
    row,
    detailsPath: null,
  }
  const meta = initialMeta({
    phase: 'crawl',
    scenarioId: facts.scenario_id,
    scenarioType: facts.scenario_type,
    architecture: 'responses',
    runDirectory: '/tmp/run',
  })
  bindRunToMeta(run, meta)
  return { run, meta }
}

function failureMessage(assertion: () => void): string {
  try {
    assertion()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('the assertion passed')
}

describe('toSatisfyRubric', () => {
  test('passes when the judge found the task understood, and records its grade', async () => {
    api.script.task_understanding = [passing(1, true)]
    api.script.grounded_communication = [passing(0.5)]
    const { run, meta } = await judgedRun(true)
    expect(run).toSatisfyRubric()
    expect(meta.grades).toEqual([
      {
        matcher: 'toSatisfyRubric',
        passed: true,
        assertion_failed: false,
        failure_text: null,
        failed_checks: [],
        summary: 'the rubric is satisfied (semantic_quality 0.75)',
      },
    ])
  })

  test('fails below a per-dimension or overall minimum, naming the dimension, its score and the rationale', async () => {
    api.script.task_understanding = [passing(1, true)]
    api.script.grounded_communication = [passing(0.5)]
    const { run, meta } = await judgedRun(true)
    const message = failureMessage(() =>
      expect(run).toSatisfyRubric({ minimum: 0.8, dimensions: { grounded_communication: 0.75 } }),
    )
    expect(message).toContain(
      'does not satisfy the rubric. Failed checks: rubric:grounded_communication, rubric:semantic_quality',
    )
    expect(message).toContain('grounded_communication scored 0.5, below 0.75: Booked as asked.')
    expect(message).toContain('semantic_quality is 0.75, below 0.8')
    expect(meta.grades[0]).toMatchObject({ passed: false, assertion_failed: true })
    // The one-verdict rule: a test that failed on this matcher fails its row with the matcher's check.
    const verdict = verdictOf({
      scenarioId: run.scenarioId,
      title: 'booking',
      state: 'fail',
      errors: [{ message }],
      grades: meta.grades,
      row: run.row,
    })
    expect(verdict.row.status).toBe('failed')
    expect(verdict.row.assessment?.checks).toContainEqual({
      id: 'assertion:toSatisfyRubric',
      status: 'failed',
      required: true,
    })
  })

  test('fails when task_understanding failed, and .not passes then', async () => {
    api.script.task_understanding = [failing(0.25, false)]
    api.script.grounded_communication = [passing(1)]
    const { run } = await judgedRun(true)
    expect(failureMessage(() => expect(run).toSatisfyRubric())).toContain(
      'rubric:task_understanding: task_understanding failed (score 0.25): Missed the request.',
    )
    expect(run).not.toSatisfyRubric()
  })

  test('never passes vacuously: without a judge it fails with "the semantic judge did not run" unless allowed', async () => {
    const { run, meta } = await judgedRun(false)
    const message = failureMessage(() => expect(run).toSatisfyRubric())
    expect(message).toContain('Failed checks: rubric:not_judged')
    expect(message).toContain('the semantic judge did not run')
    expect(run).toSatisfyRubric({ allowUnjudged: true })
    expect(meta.grades.map((grade) => grade.passed)).toEqual([false, true])
    expect(meta.grades[1]?.summary).toBe('the semantic judge did not run (allowed by allowUnjudged)')
  })

  test('a judge that failed is the infrastructure failure the matcher reports', async () => {
    api.script.task_understanding = [{ fault: 'server_error' }]
    api.script.grounded_communication = [passing(1)]
    const { run, meta } = await judgedRun(true)
    expect(run.row.status).toBe('infrastructure_error')
    const message = failureMessage(() => expect(run).toSatisfyRubric())
    expect(message).toContain('failed before it could be graded, at stage semantic_judge')
    expect(meta.grades[0]?.failed_checks).toEqual(['infrastructure:semantic_judge'])
  })

  test('refuses thresholds that can only be typos, naming them', async () => {
    const { run } = await judgedRun(false)
    expect(() => expect(run).toSatisfyRubric({ minimum: 75 })).toThrow('minimum must be a number from 0 to 1')
    expect(() => expect(run).toSatisfyRubric({ dimensions: { grounding: 0.5 } as never })).toThrow(
      'unknown dimension "grounding"',
    )
  })

  test('a named dimension that does not apply fails rather than passing unexamined', async () => {
    api.script.task_understanding = [passing(1, true)]
    api.script.grounded_communication = [passing(1)]
    const { run } = await judgedRun(true)
    const grade = run.grade
    if (grade === null) throw new Error('graded run expected')
    const verdict = rubricVerdict(grade.semantic_grades, grade.semantic_quality, {
      dimensions: { clarification_quality: 0.5 },
    })
    expect(verdict.shortfalls).toEqual([
      { id: 'rubric:clarification_quality', reason: 'clarification_quality does not apply to this scenario' },
    ])
  })
})

test('grading.backend = "decisions" in the settings sends one Decisions request and reports its confidence', async () => {
  const settings = loadPhaseConfig('crawl', null, {
    env: {
      LIVE_EVALS_MODE: 'live',
      OPENAI_API_KEY: 'sk-test-DECISIONS',
      LIVE_EVALS_JUDGE_BACKEND: 'decisions',
      LIVE_EVALS_JUDGE_CACHE: 'off',
    },
  })
  const options = judgeOptionsFromSettings(settings, { runDirectory: '/tmp/results/run', client: api.client })
  expect(options).toMatchObject({ backend: 'decisions', decisionsModel: 'gpt-6-luna', cacheDir: null })
  api.decisions.push({
    answers: {
      task_understanding: { type: 'score', probabilities: { fully_satisfied: 0.8, mostly_satisfied: 0.2 } },
      grounded_communication: { type: 'score', probabilities: { fully_satisfied: 1 } },
    },
  })
  const before = api.server.requestsTo('POST', '/v1/decisions').length
  const observed = bookingObserved()
  const { grade, semantic } = await judgeGrade(
    facts,
    gradeSingleTurn(observed.observation, facts),
    observed,
    options,
  )
  expect(api.server.requestsTo('POST', '/v1/decisions')).toHaveLength(before + 1)
  expect(semantic.judgement?.backend).toBe('decisions')
  expect(grade.semantic_grades.task_understanding.evidence).toMatchObject({ confidence: 0.8 })
  expect(semantic.judgement?.dimensions.task_understanding?.probability_weighted_score).toBe(0.95)
})

test('the judge time budget covers every attempt of the worst case, and is 0 when no judge runs', () => {
  const live = loadPhaseConfig('crawl', null, {
    env: { LIVE_EVALS_MODE: 'live', LIVE_EVALS_JUDGE_TIMEOUT_SECONDS: '10' },
  })
  // 5 dimensions × 1 repetition over 4 in flight = 2 rounds of (3 attempts × 10 s + 0.5 s + 1 s of backoff).
  expect(judgeTimeBudgetMs(live)).toBe(2 * 31_500)
  expect(judgeTimeBudgetMs({ ...live, grading: { ...live.grading, enabled: false } })).toBe(0)
  expect(judgeTimeBudgetMs(loadPhaseConfig('crawl', null, { env: {} }))).toBe(0)
})
