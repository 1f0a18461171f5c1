import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  bookingObserved,
  type FakeJudgeApi,
  judgeBooking,
  judgeOptions,
  PRIVATE_SENTINEL,
  startFakeJudgeApi,
} from './judge.test-helpers.ts'
import { judgeScenario } from './judge-scenario.ts'
import { SCORE_ANCHORS } from './rubric.ts'

let api: FakeJudgeApi

beforeEach(async () => {
  api = await startFakeJudgeApi()
})
afterEach(async () => {
  await api.close()
})

const decisions = (extra = {}) => judgeOptions(api, { backend: 'decisions', ...extra })

describe('the Decisions judge backend', () => {
  it('sends one request with a score question per applicable dimension whose levels are the five anchors', async () => {
    api.decisions.push({
      answers: {
        task_understanding: { type: 'score', probabilities: { fully_satisfied: 1 } },
        grounded_communication: { type: 'score', probabilities: { fully_satisfied: 1 } },
      },
    })
    await judgeScenario(judgeBooking(), bookingObserved(), decisions())
    const sent = api.server.requestsTo('POST', '/v1/decisions')
    expect(sent).toHaveLength(1)
    expect(api.server.requestsTo('POST', '/v1/responses')).toHaveLength(0)
    const body = sent[0]?.body as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['input', 'model', 'questions'])
    expect(body.model).toBe('gpt-6-luna')
    const questions = body.questions as { type: string; name: string; levels: { label: string }[] }[]
    expect(questions.map((question) => [question.type, question.name])).toEqual([
      ['score', 'task_understanding'],
      ['score', 'grounded_communication'],
    ])
    for (const question of questions) {
      expect(question.levels.map((level) => level.label)).toEqual(SCORE_ANCHORS.map((anchor) => anchor.label))
    }
    expect(sent[0]?.rawBody.toString('utf8')).not.toContain(PRIVATE_SENTINEL)
  })

  it('reports the point score, the probability-weighted score and the confidence from the probabilities', async () => {
    api.decisions.push({
      answers: {
        task_understanding: {
          type: 'score',
          probabilities: { fully_satisfied: 0.6, mostly_satisfied: 0.3, partially_satisfied: 0.1 },
        },
        grounded_communication: {
          type: 'score',
          probabilities: { partially_satisfied: 0.5, mostly_satisfied: 0.5 },
          confidence: 0.42,
        },
      },
    })
    const judgement = await judgeScenario(
      judgeBooking(),
      bookingObserved(),
      decisions({ decisionsModel: 'luna-x' }),
    )
    expect(judgement.backend).toBe('decisions')
    expect(judgement.judge_model).toBe('luna-x')
    expect(judgement.dimensions.task_understanding).toMatchObject({
      status: 'passed',
      score: 1,
      passed: true,
      task_completed: true,
      probability_weighted_score: 0.875,
      confidence: 0.6,
    })
    // An even split between two anchors takes the lower one: the stricter reading stands.
    expect(judgement.dimensions.grounded_communication).toMatchObject({
      status: 'failed',
      score: 0.5,
      passed: false,
      probability_weighted_score: 0.625,
      confidence: 0.42,
    })
    const sample = judgement.dimensions.task_understanding?.samples[0]
    expect(sample?.detail.raw_answer).toMatchObject({ type: 'score', name: 'task_understanding', score: 3.5 })
    expect(judgement.usage_events).toEqual([
      expect.objectContaining({
        source: 'evaluation_judge',
        dimension: null,
        model: 'luna-x',
        repetition: 0,
      }),
    ])
    expect(judgement.grades.task_understanding.evidence).toMatchObject({
      probability_weighted_score: 0.875,
      confidence: 0.6,
    })
  })

  it('a refusal leaves that dimension not_assessed with a judge error, and the others judged', async () => {
    api.decisions.push({
      answers: {
        task_understanding: { type: 'score', probabilities: { mostly_satisfied: 1 } },
        grounded_communication: { type: 'refusal' },
      },
    })
    const judgement = await judgeScenario(judgeBooking(), bookingObserved(), decisions())
    expect(judgement.grades.grounded_communication).toMatchObject({
      status: 'not_assessed',
      passed: null,
      score: null,
    })
    expect(judgement.dimensions.grounded_communication?.judge_errors).toEqual([
      'The Decisions API refused to score grounded_communication.',
    ])
    expect(judgement.grades.task_understanding).toMatchObject({ status: 'passed', score: 0.75 })
  })

  it('one request per repetition, averaged like the Responses judge', async () => {
    api.decisions.push(
      {
        answers: {
          task_understanding: { type: 'score', probabilities: { fully_satisfied: 1 } },
          grounded_communication: { type: 'score', probabilities: { fully_satisfied: 1 } },
        },
      },
      {
        answers: {
          task_understanding: { type: 'score', probabilities: { partially_satisfied: 1 } },
          grounded_communication: { type: 'score', probabilities: { fully_satisfied: 1 } },
        },
      },
    )
    const judgement = await judgeScenario(judgeBooking(), bookingObserved(), decisions({ repetitions: 2 }))
    expect(api.server.requestsTo('POST', '/v1/decisions')).toHaveLength(2)
    expect(judgement.dimensions.task_understanding).toMatchObject({ score: 0.75, spread: 0.5, passed: false })
  })

  it('a failed Decisions request is a semantic_judge failure', async () => {
    api.decisions.push({ fault: 'server_error' })
    const error = await judgeScenario(
      judgeBooking(),
      bookingObserved(),
      decisions({ retry: { maxAttempts: 1 } }),
    ).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ name: 'SemanticJudgeError', stage: 'semantic_judge', judge: 'decisions' })
    expect((error as Error).message).toContain('gpt-6-luna for evaluation_judge/decisions')
  })

  it('a cached Decisions judgment sends nothing the second time and records zero usage', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'decisions-cache-'))
    try {
      api.decisions.push({
        answers: {
          task_understanding: {
            type: 'score',
            probabilities: { mostly_satisfied: 0.8, fully_satisfied: 0.2 },
          },
          grounded_communication: { type: 'score', probabilities: { fully_satisfied: 1 } },
        },
      })
      const first = await judgeScenario(judgeBooking(), bookingObserved(), decisions({ cacheDir }))
      const second = await judgeScenario(judgeBooking(), bookingObserved(), decisions({ cacheDir }))
      expect(api.server.requestsTo('POST', '/v1/decisions')).toHaveLength(1)
      expect(second.usage_events).toEqual([
        expect.objectContaining({ cached: true, total_tokens: 0, attempts: 0, dimension: null }),
      ])
      expect(second.dimensions.task_understanding).toMatchObject({
        score: first.dimensions.task_understanding?.score,
        probability_weighted_score: 0.8,
      })
    } finally {
      await rm(cacheDir, { recursive: true, force: true })
    }
  })
})
