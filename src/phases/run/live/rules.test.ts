import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { phaseDefaults } from '../../../config/index.ts'
import type { RunSettings } from '../../../config/schema.ts'
import { DEFAULT_LIVE_RULES, liveCallRulesFrom, observerCallFrom } from './rules.ts'

const simulation = phaseDefaults('run').simulation as RunSettings['simulation']

describe('live call rules from the RUN settings', () => {
  it('reads §6’s limits from simulation.*, in milliseconds', () => {
    const rules = liveCallRulesFrom({
      ...simulation,
      drain_ms: 900,
      max_duration_seconds: 30,
      work_grace_seconds: 2.5,
      cleanup_timeout_seconds: 4,
    })
    expect(rules).toEqual({
      ...DEFAULT_LIVE_RULES,
      drainMs: 900,
      maxDurationMs: 30_000,
      workGraceMs: 2_500,
      cleanupTimeoutMs: 4_000,
    })
    expect(liveCallRulesFrom(simulation)).toEqual(DEFAULT_LIVE_RULES)
  })

  it('gives the observer completion_model and its timeout, or none without semantic_drain', () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: 'http://127.0.0.1:9/v1' })
    expect(observerCallFrom(simulation, client)).toEqual({ client, model: 'gpt-5.6-terra', timeoutMs: 8_000 })
    expect(observerCallFrom({ ...simulation, semantic_drain: false }, client)).toBeNull()
  })
})
