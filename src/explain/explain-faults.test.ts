// explain on the bundled fault scenarios (scenarios/run/faults.json), offline, the done-when of issue 22: two calls
// the offline behaviour mishandles on purpose. A timed-out booking confirmed anyway (no_false_confirmation) and a
// wrong availability answer relied on without a second check (verification_after_implausible_result) are both
// fixed by replacing the faulted tool results with the application's real ones: a backend-fault-handling failure,
// named with its interval. Suppressing the delegation, which has nothing to do with either, shows no shift. The
// timeout scenario's expected outcome assumes the timeout (nothing booked), so its fault arms are judged on whether
// the run's failure is gone; the wrong-data one passes outright.

import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { offlineRunLines } from '../phases/run/conversation.test-helpers.ts'
import { settingsFromToml } from '../phases/single-turn/test-support.ts'
import {
  EXPLAIN_VITEST_CONFIG,
  explainEnvironment,
  ROOT,
  recordRun,
  scratchFolder,
  writeToml,
} from './explain.test-helpers.ts'
import { explainRun } from './explain-run.ts'
import type { ExplainDocument } from './schema.ts'

const TIMEOUT = 'run_fault_002_booking_timeout'
const WRONG_DATA = 'run_fault_004_availability_wrong_data'
let folder = ''
let document: ExplainDocument

beforeAll(async () => {
  folder = await scratchFolder()
  const dataset = join(ROOT, 'scenarios/run/faults.json')
  const lines = offlineRunLines(dataset)
  const run = await recordRun({
    settings: await settingsFromToml('run', lines),
    dataset,
    architecture: 'responses',
    resultsDir: join(folder, 'results'),
    only: [TIMEOUT, WRONG_DATA],
  })
  ;({ document } = await explainRun({
    runDirectory: run,
    scenario: null,
    config: await writeToml(folder, 'run.toml', lines),
    // k = 2: 2/2 against 0/2 is already a shift whose interval excludes 0 (Newcombe lower bound 0.07), and trial
    // 2 draws its own faults; each further trial is one more offline simulated call in a child Vitest.
    explain: { trials: 2 },
    env: await explainEnvironment(folder),
    cwd: ROOT,
    vitestConfig: EXPLAIN_VITEST_CONFIG,
    project: 'run-explain',
  }))
}, 180_000)

afterAll(async () => {
  if (folder !== '') await rm(folder, { recursive: true, force: true })
})

const explained = (id: string) => {
  const explanation = document.explanations.find((candidate) => candidate.scenario_id === id)
  if (explanation === undefined)
    throw new Error(`${id} was not explained: ${JSON.stringify(document.not_explained)}`)
  return explanation
}
const arm = (id: string, name: string) =>
  explained(id).interventions.find((candidate) => candidate.arm === name)

describe('explain, offline, the bundled fault scenarios', () => {
  test('a timed-out booking confirmed anyway: the real tool result resolves it, a backend-fault-handling failure', () => {
    const explanation = explained(TIMEOUT)
    expect(explanation.original_failed_checks).toEqual(['assertion:toCompleteTask', 'no_false_confirmation'])
    expect(explanation.control.reruns.map((rerun) => rerun.failed_checks)).toEqual(
      Array(2).fill(explanation.original_failed_checks),
    )
    expect(explanation.decisive).toMatchObject({
      intervention: 'correct_tool_result',
      measure: 'failure_resolved',
      successes: 2,
      n: 2,
    })
    expect(explanation.classification).toMatchObject({
      class: 'backend_fault_handling',
      basis: 'intervention',
    })
    expect(explanation.summary).toBe(
      "fixed by the faulted tool results replaced with the application's real ones in 2/2 (unchanged 0/2; judged on the checks the run failed, as the scenario's expected outcome assumes the fault): a backend-fault-handling failure",
    )
    const corrected = arm(TIMEOUT, 'correct_tool_result')
    // The booking now goes through: the confirmation is true, and only the expected outcome (nothing booked) fails.
    expect(corrected).toMatchObject({ passed: 0, resolved: 2, effect: 'fixes' })
    expect(corrected?.shift?.lower).toBeGreaterThan(0)
    expect(corrected?.reruns.every((rerun) => !rerun.failed_checks.includes('no_false_confirmation'))).toBe(
      true,
    )
    // Turning the whole profile off does as much; the tool results come first in the catalogue.
    expect(arm(TIMEOUT, 'faults_off')).toMatchObject({
      resolved: 2,
      effect: 'fixes',
      class: 'backend_fault_handling',
    })
    // Unaffected: no delegation, no booking, no confirmation, but a failed delegation policy. No shift.
    expect(arm(TIMEOUT, 'suppress_delegation')).toMatchObject({
      measure: 'verdict',
      successes: 0,
      effect: 'no_shift',
      shift: { delta: 0 },
    })
  })

  test('a wrong availability answer relied on: the real answer flips the verdict itself', () => {
    const explanation = explained(WRONG_DATA)
    expect(explanation.original_failed_checks).toContain('verification_after_implausible_result')
    expect(explanation.decisive).toMatchObject({ intervention: 'correct_tool_result', successes: 2, n: 2 })
    expect(arm(WRONG_DATA, 'correct_tool_result')).toMatchObject({ passed: 2, resolved: 2 })
    expect(explanation.summary).toBe(
      "fixed by the faulted tool results replaced with the application's real ones in 2/2 (unchanged 0/2): a backend-fault-handling failure",
    )
    expect(arm(WRONG_DATA, 'suppress_delegation')?.effect).toBe('no_shift')
  })

  test("each trial draws the profile's faults from its own seed; trial 1 is the run's", () => {
    const seeds = explained(TIMEOUT).control.reruns.map((rerun) => rerun.draws.fault_seed)
    // tool-timeout's recorded seed.
    expect(seeds[0]).toBe(3)
    expect(new Set(seeds).size).toBe(2)
    expect(document.trial_variation.join(' ')).toContain('the fault profile’s draws')
  })
})
