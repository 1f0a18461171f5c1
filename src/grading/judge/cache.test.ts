import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { contentHash, type JudgeCacheKey, openJudgeCache } from './cache.ts'
import {
  bookingObserved,
  type FakeJudgeApi,
  judgeBooking,
  judgeOptions,
  passing,
  startFakeJudgeApi,
} from './judge.test-helpers.ts'
import { judgeScenario } from './judge-scenario.ts'

let api: FakeJudgeApi
let root: string

beforeEach(async () => {
  api = await startFakeJudgeApi()
  api.script.task_understanding = [passing(1, true), passing(0.75, true)]
  api.script.grounded_communication = [passing(0.75), passing(0.5)]
  root = await mkdtemp(join(tmpdir(), 'judge-cache-'))
})
afterEach(async () => {
  await api.close()
  await rm(root, { recursive: true, force: true })
})

const requests = () => api.server.requestsTo('POST', '/v1/responses').length

describe('judge cache', () => {
  it('a second judgment of the same evidence sends nothing and records zero usage with cached: true', async () => {
    const cacheDir = join(root, 'cache')
    const first = await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api, { cacheDir }))
    expect(requests()).toBe(2)
    const second = await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api, { cacheDir }))
    expect(requests()).toBe(2)
    for (const dimension of ['task_understanding', 'grounded_communication'] as const) {
      const { status, score, passed } = first.grades[dimension]
      expect(second.grades[dimension]).toMatchObject({ status, score, passed })
    }
    for (const event of second.usage_events) {
      expect(event).toMatchObject({
        cached: true,
        attempts: 0,
        latency_ms: 0,
        total_tokens: 0,
        input_tokens: 0,
        output_tokens: 0,
      })
    }
    expect(second.dimensions.task_understanding?.samples[0]?.cached).toBe(true)
  })

  it('keeps its directory 0700 and its files 0600', async () => {
    const cacheDir = join(root, 'nested', 'cache')
    await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api, { cacheDir }))
    expect((await stat(cacheDir)).mode & 0o777).toBe(0o700)
    const files = await readdir(cacheDir)
    expect(files).toHaveLength(2)
    for (const file of files) expect((await stat(join(cacheDir, file))).mode & 0o777).toBe(0o600)
  })

  it('keys repetitions apart: each repetition is its own judgment and its own entry', async () => {
    const cacheDir = join(root, 'cache')
    const judged = await judgeScenario(
      judgeBooking(),
      bookingObserved(),
      judgeOptions(api, { cacheDir, repetitions: 2 }),
    )
    expect(requests()).toBe(4)
    // Repetitions are sent at once, so which one the fake answers first (1 or 0.75) is arrival order: compare sorted.
    const scores = judged.dimensions.task_understanding?.samples.map((sample) => sample.score) ?? []
    expect([...scores].sort()).toEqual([0.75, 1])
    expect(await readdir(cacheDir)).toHaveLength(4)
  })

  it('misses when the evidence, the model or the effort changes, and is off without a directory', async () => {
    const cacheDir = join(root, 'cache')
    await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api, { cacheDir }))
    const changed = bookingObserved()
    changed.backend_messages = ['Something else.']
    await judgeScenario(judgeBooking(), changed, judgeOptions(api, { cacheDir }))
    expect(requests()).toBe(4)
    await judgeScenario(
      judgeBooking(),
      bookingObserved(),
      judgeOptions(api, { cacheDir, model: 'other-judge' }),
    )
    await judgeScenario(
      judgeBooking(),
      bookingObserved(),
      judgeOptions(api, { cacheDir, reasoningEffort: 'high' }),
    )
    expect(requests()).toBe(8)
    await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api))
    await judgeScenario(judgeBooking(), bookingObserved(), judgeOptions(api, { cacheDir: null }))
    expect(requests()).toBe(12)
  })

  it('treats a corrupt or foreign entry as a miss', async () => {
    const cache = openJudgeCache(join(root, 'cache'))
    if (cache === null) throw new Error('expected a cache')
    const key: JudgeCacheKey = {
      backend: 'responses',
      model: 'm',
      reasoning_effort: null,
      rubric_version: 'voice-semantic-v2',
      dimension: 'task_understanding',
      prompt_hash: 'p',
      evidence_hash: 'e',
      repetition: 0,
    }
    const verdict = { ...passing(), score: 1 as const }
    await cache.put({ key, verdict, detail: {} })
    expect(await cache.get(key)).toMatchObject({ verdict })
    const file = join(cache.directory, `${contentHash(key)}.json`)
    await writeFile(file, '{"key": 1')
    expect(await cache.get(key)).toBeNull()
    await writeFile(file, JSON.stringify({ key: { ...key, repetition: 1 }, verdict, detail: {} }))
    expect(await cache.get(key)).toBeNull()
    await writeFile(file, JSON.stringify({ key, verdict: { ...verdict, score: 0.3 }, detail: {} }))
    expect(await cache.get(key)).toBeNull()
  })

  it('hashes evidence independently of key order', () => {
    expect(contentHash({ a: 1, b: [{ c: 2, d: 3 }] })).toBe(contentHash({ b: [{ d: 3, c: 2 }], a: 1 }))
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }))
  })
})
