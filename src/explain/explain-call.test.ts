// explain on a simulated call (RUN), offline: a bundled booking with a scheduled barge-in that asks for a second
// booking fails (two reservations, the wrong final state). Removing that barge-in fixes it: turn-taking. The call
// ran under the noisy preset, and the caller's clean audio shows no shift (offline hearing does not depend on the
// noise); each trial draws its own preset noise. Without the run's interventions file the project's run cannot
// remove the barge-in: the scenario is not explained, and the message says which setting to give.
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
  writeJson,
  writeToml,
} from './explain.test-helpers.ts'
import { explainRun } from './explain-run.ts'

const SCENARIO = 'run_001_booking_complete'
let folder = ''
let run = ''
let toml = ''
let env: Record<string, string | undefined> = {}

beforeAll(async () => {
  folder = await scratchFolder()
  env = await explainEnvironment(folder)
  const dataset = join(ROOT, 'scenarios/run/restaurant.json')
  const schedule = await writeJson(folder, 'interventions.json', {
    schema_version: '1.0',
    interventions: {
      [SCENARIO]: [
        {
          id: 'second_booking',
          kind: 'barge_in',
          text: 'Sorry to cut in, could you book a table under Haddad on August 21 at 7 p.m. for two?',
          trigger: { while_assistant_speaking_ms: 800, occurrence: 1, after_caller_line: 0 },
        },
      ],
    },
  })
  const lines = offlineRunLines(dataset, [
    'condition = "noisy"',
    `interventions_file = ${JSON.stringify(schedule)}`,
  ])
  toml = await writeToml(folder, 'run.toml', lines)
  run = await recordRun({
    settings: await settingsFromToml('run', lines),
    dataset,
    architecture: 'responses',
    resultsDir: join(folder, 'results'),
    only: [SCENARIO],
  })
}, 60_000)

afterAll(async () => {
  if (folder !== '') await rm(folder, { recursive: true, force: true })
})

const explain = (config: string) =>
  explainRun({
    runDirectory: run,
    scenario: null,
    config,
    // k = 2: 2/2 against 0/2 already excludes no shift (Newcombe lower bound 0.07) and trial 2 draws its own
    // noise; each further trial is one more offline simulated call in a child Vitest.
    explain: { trials: 2 },
    env,
    cwd: ROOT,
    vitestConfig: EXPLAIN_VITEST_CONFIG,
    project: 'run-explain',
  })

describe('explain, offline, a simulated call', () => {
  test('removing the scheduled barge-in fixes it (turn-taking); the clean audio shows no shift', async () => {
    const { document } = await explain(toml)
    const [explanation] = document.explanations
    if (explanation === undefined) throw new Error('no explanation')
    expect(explanation.summary).toBe(
      'fixed by the scheduled barge-in "second_booking" removed in 2/2 (unchanged 0/2): a turn-taking failure',
    )
    expect(explanation.decisive).toMatchObject({
      intervention: 'remove_barge_in',
      arm: 'remove_barge_in-second_booking',
    })
    expect(
      explanation.interventions.find((arm) => arm.arm === 'remove_barge_in-second_booking')?.target,
    ).toBe('second_booking')
    expect(explanation.control.reruns[0]?.failed_checks).toContain('no_unexpected_side_effects')
    const clean = explanation.interventions.find((arm) => arm.intervention === 'clean_audio')
    expect(clean?.label).toBe("the caller's clean audio (no noisy preset)")
    expect(clean).toMatchObject({ passed: 0, n: 2, effect: 'no_shift', shift: { delta: 0 } })
    // Trial 1 is the run's own preset seed; the others draw their own noise.
    const seeds = explanation.control.reruns.map((rerun) => rerun.draws.preset_seed)
    expect(seeds[0]).toBe(7)
    expect(new Set(seeds).size).toBe(2)
    expect(document.trial_variation.join(' ')).toContain('simulation.seed')
  }, 180_000)

  test("without the run's interventions file, the barge-in cannot be removed: it says which setting to give", async () => {
    // The same dataset, without the interventions file: the project's run refuses before any re-run.
    const without = await writeToml(folder, 'without.toml', offlineRunLines())
    const { document } = await explain(without)
    expect(document.explanations).toEqual([])
    const [entry] = document.not_explained
    expect(entry).toMatchObject({ scenario_id: SCENARIO, reason: 'not_rerun' })
    expect(entry?.message).toMatch(
      /removes the scheduled barge-in second_booking of run_001_booking_complete, which no simulation\.interventions_file names; give the run’s settings/,
    )
  }, 180_000)
})
