import { expect, test } from 'vitest'
import { projectOptionsOf, runPlanOf } from './provided.ts'
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

test('a project not built with liveEvalsProject(): named, with the installed import and where to run from', () => {
  expect(() => projectOptionsOf({}, 'evals')).toThrow(
    /^Vitest project "evals" runs live-evals suites but was not configured for them\. In vitest\.config\.ts, build it with liveEvalsProject\(\{ phase, config \}\) \(import \{ liveEvalsProject \} from 'live-evals\/vitest'\), and run Vitest from the folder that holds that vitest\.config\.ts \(npx vitest run\), not from specs\/$/,
  )
  for (const unnamed of ['', undefined]) {
    expect(() => projectOptionsOf({}, unnamed)).toThrow(/^This Vitest project runs live-evals suites/)
  }
})
