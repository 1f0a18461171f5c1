// explain end to end, offline, on a WALK run that fails for a reason the test controls: both recordings of a
// request say the date wrong (the offline server hears a recording by its transcript), so the run books the wrong
// day. The re-runs go through a Vitest project (src/explain/fixtures: the bundled assistant, the default body),
// one child Vitest per explained scenario. The run ran each scenario twice (a trials run): each is explained once,
// naming the trials that failed. Hearing the scenario's text fixes it, 5 of 5, with its interval; the clean
// recording says the same wrong date and shows no shift; the control reproduces the run's failure; the run's report
// shows it; the budget cap and an interruption stop cleanly and keep what finished, and the same seed gives the
// same explanation. Every child Vitest costs about 5 CPU s before its first re-run, so the budget test starts none
// (what the cap admits goes to a stand-in for Vitest) and the interrupted explain repeats the first test's trials
// 1 and 2 (k = 2: trial 2 draws its own lead-in), 8 offline re-runs instead of 20.
import { readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { settingsFromToml } from '../phases/single-turn/test-support.ts'
import { writeRunReport } from '../report/write-report.ts'
import { type ArmOutcome, explanationOf } from './attribution.ts'
import {
  EXPLAIN_VITEST_CONFIG,
  explainEnvironment,
  misheardWalkDataset,
  ROOT,
  recordRun,
  scratchFolder,
  writeToml,
} from './explain.test-helpers.ts'
import { explainRun } from './explain-run.ts'
import { loadExplanation } from './load-explanations.ts'
import { EXPLAIN_PLAN_VARIABLE, type RerunPlan } from './rerun-plan.ts'
import { type Arm, EXPLAIN_FILE, ExplainDocumentSchema, type Explanation, SUMMARY_FILE } from './schema.ts'

let folder = ''
let run = ''
let toml = ''
let env: Record<string, string | undefined> = {}
// The first test's explanation of explain_misheard_noisy (seed 1, k = 5): the interrupted explain repeats its
// first trials.
let first: Explanation | null = null

/** What `explanation`'s re-runs of trials 1 to `k` alone attribute: an explain of the same seed with that k. */
function firstTrials(explanation: Explanation, k: number): Explanation {
  const outcome = (arm: Arm): ArmOutcome => ({
    arm: arm.arm,
    intervention: arm.intervention,
    label: arm.label,
    target: arm.target,
    measure: arm.measure,
    class: arm.class,
    reruns: arm.reruns.slice(0, k),
  })
  const { scenario_id, title, run_rows, original_failed_checks, not_applicable } = explanation
  return explanationOf(
    { scenario_id, title, run_rows, original_failed_checks, not_applicable },
    outcome(explanation.control),
    explanation.interventions.map(outcome),
  )
}

beforeAll(async () => {
  folder = await scratchFolder()
  env = await explainEnvironment(folder)
  const dataset = await misheardWalkDataset(folder)
  const lines = ['[dataset]', `path = ${JSON.stringify(dataset)}`, '[execution]', 'mode = "offline"']
  toml = await writeToml(folder, 'walk.toml', lines)
  const settings = await settingsFromToml('walk', lines)
  run = await recordRun({
    settings,
    dataset,
    architecture: 'responses',
    resultsDir: join(folder, 'results'),
    trials: 2,
  })
}, 60_000)

afterAll(async () => {
  if (folder !== '') await rm(folder, { recursive: true, force: true })
})

const explain = (options: Partial<Parameters<typeof explainRun>[0]> = {}) =>
  explainRun({
    runDirectory: run,
    scenario: null,
    config: toml,
    explain: {},
    env,
    cwd: ROOT,
    vitestConfig: EXPLAIN_VITEST_CONFIG,
    project: 'walk-explain',
    ...options,
  })

describe('explain, offline, a misheard WALK request', () => {
  test('names the intervention that flips it, with its interval; an unaffected one shows no shift', async () => {
    const lines: string[] = []
    const { document, directory } = await explain({
      scenario: 'explain_misheard_noisy',
      log: (line) => lines.push(line),
    })
    // The plan and its budget come first, before any result.
    expect(lines[0]).toMatch(/1 failed scenario\(s\) to explain, offline re-runs, k = 5 per arm, seed 1/)
    expect(lines[2]).toBe('budget: 20 of 20 re-runs fit under the cap of 100; offline: free')
    expect(lines[3]).toMatch(/^re-running in the Vitest project "walk-explain" of src\/explain\/fixtures/)
    expect(document).toMatchObject({
      mode: 'offline',
      trials: 5,
      seed: 1,
      completion: { ending: 'complete' },
    })
    expect(document.budget).toMatchObject({ admitted_reruns: 20, executed_reruns: 20 })
    const [explanation] = document.explanations
    if (explanation === undefined) throw new Error('no explanation')
    first = explanation
    expect(explanation.summary).toBe(
      "fixed by the scenario's text instead of its recording (a perfect hearing) in 5/5 (unchanged 0/5): a hearing failure",
    )
    expect(explanation.decisive).toMatchObject({
      intervention: 'text_for_audio',
      measure: 'verdict',
      successes: 5,
      n: 5,
    })
    expect(explanation.classification).toMatchObject({ class: 'mishearing', basis: 'intervention' })
    // Both trials of the run failed: the scenario is explained once, naming them.
    expect(explanation.run_rows).toEqual({ failed_trials: [1, 2], total: 2 })
    // Trial 1 is the run's own draw; the others draw their own lead-in (the same for every arm).
    const offsets = explanation.control.reruns.map((rerun) => rerun.draws.caller_offset_ms)
    expect(offsets[0]).toBe(0)
    expect(new Set(offsets).size).toBeGreaterThan(1)
    const arm = (name: string) => explanation.interventions.find((candidate) => candidate.arm === name)
    const text = arm('text_for_audio')
    expect(text?.rate.lower).toBeGreaterThan(0.5)
    expect(text?.shift?.lower).toBeGreaterThan(0.38)
    expect(text?.effect).toBe('fixes')
    // The clean recording says the same wrong date: exactly no shift, trial for trial.
    const clean = arm('clean_audio')
    expect(clean?.label).toContain('explain_misheard_clean')
    expect(clean?.shift?.delta).toBe(0)
    expect(clean?.effect).toBe('no_shift')
    expect(clean?.reruns.map((rerun) => rerun.status)).toEqual(
      explanation.control.reruns.map((rerun) => rerun.status),
    )
    // The control reproduces the run's failure, check for check.
    expect(explanation.control.passed).toBe(0)
    expect(explanation.control.reruns[0]?.failed_checks).toEqual(explanation.original_failed_checks)
    expect(explanation.not_applicable.map((entry) => entry.intervention)).toEqual([
      'remove_barge_in',
      'force_delegation',
      'correct_tool_result',
      'faults_off',
    ])
    // Written: the versioned document (as returned), the summary, each re-run's evidence.
    const written = ExplainDocumentSchema.parse(
      JSON.parse(await readFile(join(directory, EXPLAIN_FILE), 'utf8')),
    )
    expect(written).toEqual(document)
    expect(await readFile(join(directory, SUMMARY_FILE), 'utf8')).toContain(`**${explanation.summary}**`)
    const firstDetails = explanation.control.reruns[0]?.details as string
    const details = JSON.parse(await readFile(join(directory, firstDetails), 'utf8'))
    expect(details.example_id).toBe('explain_misheard_noisy')
    // Each arm is a run folder of the project's Vitest run, its trials as rows; what Vitest printed is kept.
    const arms = join(directory, 'reruns/explain_misheard_noisy')
    const control = JSON.parse(await readFile(join(arms, 'control/results.json'), 'utf8'))
    expect(control.summary).toMatchObject({ total: 5, failed: 5 })
    expect(await readFile(join(arms, 'vitest.log'), 'utf8')).toContain('[explain text_for_audio/responses]')
    // Trial 1 keeps its recordings; later trials keep their evidence without the WAVs.
    const controlFolder = join(arms, 'control/audio')
    await expect(
      stat(join(controlFolder, 'explain_misheard_noisy__t1/conversation.wav')),
    ).resolves.toBeTruthy()
    await expect(stat(join(controlFolder, 'explain_misheard_noisy__t2/conversation.wav'))).rejects.toThrow()
    await expect(
      stat(join(controlFolder, 'explain_misheard_noisy__t2/conversation.transcript.txt')),
    ).resolves.toBeTruthy()
    // The run's report shows the newest explanation.
    const loaded = await loadExplanation(run, document.run.id)
    expect(loaded?.document?.created_at).toBe(document.created_at)
    const page = await readFile(await writeRunReport(run), 'utf8')
    expect(page).toContain('<h2 id="explain">Why it failed</h2>')
    expect(page).toContain(
      'fixed by the scenario&#39;s text instead of its recording (a perfect hearing) in 5/5',
    )
    expect(page).toContain('class <b>mishearing</b>')
  }, 120_000)

  test('the budget cap: whole scenarios while they fit go to the re-runs, the rest named as not explained', async () => {
    // A stand-in for the project's Vitest: it runs nothing (so the admitted scenario is named not_rerun) and says
    // which plans it was handed.
    const handed: RerunPlan[] = []
    const lines: string[] = []
    const { document } = await explain({
      explain: { trials: 2, max_reruns: 10 },
      log: (line) => lines.push(line),
      runVitest: async (invocation) => {
        handed.push(JSON.parse(await readFile(invocation.env[EXPLAIN_PLAN_VARIABLE] as string, 'utf8')))
        return { code: 0, output: '', resultFiles: [] }
      },
    })
    expect(lines).toContain(
      'budget: 8 of 14 re-runs fit under the cap of 10 (1 scenario(s) will not be explained); offline: free',
    )
    expect(document.budget).toMatchObject({ max_reruns: 10, planned_reruns: 14, admitted_reruns: 8 })
    // Only the admitted scenario was handed to Vitest, whole: every arm, both trials.
    expect(handed.map((plan) => [plan.scenario_id, plan.arms.length, plan.draws.length])).toEqual([
      ['explain_misheard_noisy', 4, 2],
    ])
    expect(document.budget.executed_reruns).toBe(0)
    expect(document.not_explained).toEqual([
      {
        scenario_id: 'explain_misheard_clean',
        reason: 'budget',
        message: 'needs 6 re-runs, past the cap of 10 (explain.max_reruns, --max-reruns)',
      },
      expect.objectContaining({ scenario_id: 'explain_misheard_noisy', reason: 'not_rerun' }),
    ])
    expect(document.completion).toMatchObject({ ending: 'budget' })
    expect(document.completion.message).toContain('explain_misheard_clean not explained')
  })

  test('interrupted: what finished is kept and written, the rest is named; the same seed, the same explanation', async () => {
    const stop = new AbortController()
    const { document, directory } = await explain({
      explain: { trials: 2 },
      signal: stop.signal,
      // Stop as soon as the first scenario is explained.
      log: (line) => {
        if (line.startsWith('  explain_misheard_noisy: fixed')) stop.abort()
      },
    })
    expect(document.completion.ending).toBe('interrupted')
    expect(document.budget).toMatchObject({ admitted_reruns: 14, executed_reruns: 8 })
    expect(document.explanations.map((explanation) => explanation.scenario_id)).toEqual([
      'explain_misheard_noisy',
    ])
    expect(document.not_explained).toEqual([
      expect.objectContaining({ scenario_id: 'explain_misheard_clean', reason: 'interrupted' }),
    ])
    const written = ExplainDocumentSchema.parse(
      JSON.parse(await readFile(join(directory, EXPLAIN_FILE), 'utf8')),
    )
    expect(written.explanations).toHaveLength(1)
    // The first test explained the same scenario with the same seed: its trials 1 and 2 are these, re-run for
    // re-run, and attribute to the same explanation.
    if (first === null) throw new Error('the first test did not explain explain_misheard_noisy')
    expect(document.explanations[0]).toEqual(firstTrials(first, 2))
    expect(document.explanations[0]?.summary).toBe(
      "fixed by the scenario's text instead of its recording (a perfect hearing) in 2/2 (unchanged 0/2): a hearing failure",
    )
  }, 120_000)
})
