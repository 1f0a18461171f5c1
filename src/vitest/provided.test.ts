import { expect, test } from 'vitest'
import { runPlanOf } from './provided.ts'
import type { RunPlan } from './run-plan-schema.ts'

const plan = { runs: [] } as unknown as RunPlan

test('the run plan, when the global setup provided one', () => {
  expect(runPlanOf({ liveEvalsRun: { state: 'planned', plan } })).toBe(plan)
})

test('a rerun that could not be planned: its problem, not the previous plan or a setup hint', () => {
  const problem = 'live-evals: the CRAWL run cannot start; nothing was run\n  dataset.json: malformed JSON\n'
  expect(() => runPlanOf({ liveEvalsRun: { state: 'not_started', problem } })).toThrow(
    /^live-evals: the CRAWL run cannot start; nothing was run\n {2}dataset\.json: malformed JSON$/,
  )
})

test('nothing provided: the global setup did not run, and the error says how to wire it', () => {
  expect(() => runPlanOf({})).toThrow(/liveEvalsProject\(\) does this/)
})
