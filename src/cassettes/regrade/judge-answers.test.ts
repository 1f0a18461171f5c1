// The judge of a re-grade, end to end over real HTTP: the judge runs once against the loopback fake judge API
// through the cassette recorder (what a recording keeps), then again with the re-grade's scope, whose inner fetch
// is the network and must never be called. Equal requests get the recorded judgment; a changed criterion, model
// or no recorded judge at all leave the semantic grades not assessed, saying why, and fail nothing.
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bookingObservation, bookingScenario } from '../../grading/grading-fixtures.ts'
import type { JudgeScenarioFacts } from '../../grading/judge/evidence.ts'
import {
  bookingObserved,
  type FakeJudgeApi,
  judgeBooking,
  judgeOptions,
  passing,
  startFakeJudgeApi,
} from '../../grading/judge/judge.test-helpers.ts'
import { gradeSingleTurn } from '../../grading/single-turn.ts'
import { judgeGrade } from '../../phases/engine/judge-stage.ts'
import { testCassette } from '../cassette-header.test-helpers.ts'
import type { LoadedCassette } from '../files.ts'
import { CassetteRecorder } from '../recorder.ts'
import type { HttpExchange } from '../schema.ts'
import { isJudgeRequest } from './judge-answers.ts'
import { RegradeReplay } from './regrade-replay.ts'

const REDACTION = { extraNames: [], secretValues: [] }
let api: FakeJudgeApi
let recorded: HttpExchange[] = []

const deterministic = () => gradeSingleTurn(bookingObservation(), bookingScenario())

function cassetteOf(http: HttpExchange[]): LoadedCassette {
  return {
    folder: '/nowhere',
    files: new Map(),
    cassette: testCassette(
      { id: 'crawl_x__responses', scenario_id: 'crawl_x', openai_sdk_version: '0' },
      { http },
    ),
  }
}

/** The judge again, answered by the re-grade's scope alone; `network` counts what reached the inner fetch. */
async function rejudge(http: HttpExchange[], facts: JudgeScenarioFacts, model = 'judge-model') {
  const regrade = new RegradeReplay(cassetteOf(http), {}, REDACTION)
  const network: string[] = []
  const scope = regrade.scope({
    tap: { opened() {} },
    fetch: async (input) => {
      network.push(String(input))
      throw new Error('a re-grade reached the network')
    },
  })
  const client = new OpenAI({ apiKey: 'replay', baseURL: api.server.baseURL, fetch: scope.fetch })
  const judged = await judgeGrade(
    facts,
    deterministic(),
    bookingObserved(),
    judgeOptions(api, { client, model }),
  )
  return { judged, extension: regrade.extension(), network }
}

beforeAll(async () => {
  api = await startFakeJudgeApi()
  api.script.task_understanding = [passing(1, true)]
  api.script.grounded_communication = [passing(0.75)]
  const recorder = new CassetteRecorder(REDACTION, 1024 * 1024)
  const client = new OpenAI({
    apiKey: 'test',
    baseURL: api.server.baseURL,
    fetch: (input, init) => recorder.fetch(input, init),
  })
  const live = await judgeGrade(
    judgeBooking(),
    deterministic(),
    bookingObserved(),
    judgeOptions(api, { client }),
  )
  expect(live.semantic.failure).toBeNull()
  recorded = recorder.finish().http
})

afterAll(async () => {
  await api?.close()
})

describe('the judge of a re-grade', () => {
  test('tells judge requests from the conversation’s own', () => {
    expect(recorded.length).toBeGreaterThan(0)
    for (const exchange of recorded) {
      expect(isJudgeRequest(exchange.method, exchange.path, exchange.request.json)).toBe(true)
    }
    expect(
      isJudgeRequest('POST', '/v1/responses', { text: { format: { name: 'completion_decision' } } }),
    ).toBe(false)
    expect(isJudgeRequest('POST', '/v1/decisions', {})).toBe(true)
    expect(isJudgeRequest('GET', '/v1/decisions', {})).toBe(false)
  })

  test('an equal request gets the recorded judgment, without the network', async () => {
    const { judged, extension, network } = await rejudge(recorded, judgeBooking())
    expect(network).toEqual([])
    expect(judged.semantic.failure).toBeNull()
    expect(judged.grade.semantic_grades.task_understanding).toMatchObject({ status: 'passed', score: 1 })
    expect(judged.grade.semantic_quality.score).toBe(0.875)
    expect(extension).toMatchObject({ judge: 'reused', judge_requests_reused: recorded.length, reason: null })
  })

  test('a changed criterion is not re-judged: null scores, the reason names the change, nothing fails', async () => {
    const changed = judgeBooking()
    changed.expected = { ...changed.expected, criteria: ['Confirms the reservation id AND the party size.'] }
    const { judged, extension, network } = await rejudge(recorded, changed)
    expect(network).toEqual([])
    expect(judged.semantic.failure).toBeNull()
    expect(judged.semantic.judgement).toBeNull()
    expect(judged.grade.semantic_quality.score).toBeNull()
    const understanding = judged.grade.semantic_grades.task_understanding
    expect(understanding.status).toBe('not_assessed')
    expect(understanding.score).toBeNull()
    expect(understanding.rationale).toMatch(
      /^Not re-judged: today's judge request differs from the recorded one \(input\[1\]\.content changed at character \d+/,
    )
    expect(extension.judge).toBe('not_rejudged')
    expect(extension.reason).toContain('a re-grade never asks the network')
    // The deterministic verdict stands: the judge's absence decides nothing.
    expect(judged.grade.task_completed).toBe(deterministic().task_completed)
  })

  test('another judge model, or a recording without a judge, is not re-judged either', async () => {
    const otherModel = await rejudge(recorded, judgeBooking(), 'another-judge')
    expect(otherModel.extension.reason).toMatch(/model: recorded "judge-model", now "another-judge"/)
    const none = await rejudge([], judgeBooking())
    expect(none.extension).toMatchObject({ judge: 'not_rejudged', judge_requests_reused: 0 })
    expect(none.extension.reason).toMatch(/^the recording holds no judge answer for POST \/v1\/responses/)
    expect(none.network).toEqual([])
  })
})
