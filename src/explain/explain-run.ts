// `live-evals explain`, the work: read the run, decide per failed scenario which interventions apply, budget the
// re-runs and print the plan before anything starts, then re-run the unchanged scenario and each intervention k
// times (trial-draws.ts) through the project's own Vitest run (project-reruns.ts: the spec file's assistant,
// tools and test body), attribute (attribution.ts), and write explain.json and explain.md into a new folder
// beside the run. explain.json is rewritten after every scenario, so an interrupted explain keeps what finished.
import { join, resolve } from 'node:path'
import { reserveRunDirectory, writeArtifact, writeJsonArtifact } from '../artifacts/index.ts'
import { RESULTS_FILE } from '../artifacts/results-file-name.ts'
import type { PhaseSettings } from '../config/index.ts'
import { DEFAULT_PRICES, type PriceTable } from '../config/prices.ts'
import { type ArmOutcome, explanationOf } from './attribution.ts'
import { applicableArms } from './interventions.ts'
import { explainMarkdown } from './markdown.ts'
import { budget, costEstimate, type ScenarioPlan } from './plan.ts'
import { type ProjectRunner, rerunInProject } from './project-reruns.ts'
import { childRunOverrides, rerunSettings } from './rerun-settings.ts'
import { rowFactsOf } from './row-facts.ts'
import {
  EXPLAIN_FILE,
  EXPLAIN_VERSION,
  type ExplainDocument,
  type Explanation,
  INTERVENTION_IDS,
  SUMMARY_FILE,
} from './schema.ts'
import {
  ExplainInputError,
  failedChecksOf,
  failedScenarios,
  readSourceRun,
  type SkippedScenario,
  type SourceRun,
} from './source-run.ts'
import { trialDraws } from './trial-draws.ts'

export interface ExplainOptions {
  runDirectory: string
  /** Only this scenario; null: every failed one. */
  scenario: string | null
  /** A phase config.toml (as `live-evals grade --config`); null: LIVE_EVALS_CONFIG or the defaults. */
  config: string | null
  /** Command-line values of the explain settings (trials, max_reruns, seed). */
  explain: Partial<PhaseSettings['explain']>
  /** Where the explain folder is created; default: beside the run. */
  out?: string | null
  prices?: PriceTable
  env?: Record<string, string | undefined>
  cwd?: string
  now?: Date
  /** The Vitest config whose project re-runs the scenarios (`--vitest-config`); default: Vitest's own lookup. */
  vitestConfig?: string | null
  /** That project (`--project`); default: the phase's name, as liveEvalsProject names it. */
  project?: string | null
  /** Tests replace how the project's Vitest is started; default: a child process. */
  runVitest?: ProjectRunner['runVitest']
  /** Ctrl-C: stops starting re-runs; the scenarios already explained are kept. */
  signal?: AbortSignal
  /** Each line of progress, as it happens (the plan first). */
  log?: (line: string) => void
}

export interface ExplainOutcome {
  directory: string
  document: ExplainDocument
}

function trialVariation(module: string, faults: boolean, replayedCaller: string | null): string[] {
  const lines = ['trial 1 is the run’s own draw; trials 2..k are drawn from the seed and the trial number']
  if (module !== 'run' && replayedCaller === null) {
    lines.push('when the caller starts speaking (0–300 ms more lead-in, in 20 ms frames)')
  }
  if (module === 'run') lines.push('the acoustic preset’s noise (simulation.seed)')
  if (faults) lines.push('the fault profile’s draws (its seed)')
  return lines
}

/**
 * Refuses a run of a separately running client assistant: its tools, backend and state live in that service, which
 * the re-runs could not hold to one change at a time.
 */
function refuseRemoteAssistant(run: SourceRun): void {
  const endpoint = run.document.run.configuration.assistant_endpoint
  if (typeof endpoint === 'string' && endpoint !== '') {
    throw new ExplainInputError(
      `${join(run.directory, RESULTS_FILE)}: the run evaluated a remote client assistant at ${endpoint}; ` +
        'explain re-runs assistants defined in the project (defineAssistant or the bundled example) only',
    )
  }
}

export async function explainRun(options: ExplainOptions): Promise<ExplainOutcome> {
  const log = options.log ?? (() => {})
  const cwd = options.cwd ?? process.cwd()
  const run = await readSourceRun(resolve(cwd, options.runDirectory))
  refuseRemoteAssistant(run)
  const mode = run.mode === 'offline' ? 'offline' : 'live'
  const settings = rerunSettings(run, mode, {
    config: options.config,
    env: options.env ?? process.env,
    cwd,
    explain: options.explain,
  })
  const { trials: k, max_reruns: maxReruns, seed } = settings.explain
  const { failed, skipped } = await failedScenarios(run, options.scenario)

  const plans: ScenarioPlan[] = []
  for (const scenario of failed) {
    let facts: Awaited<ReturnType<typeof rowFactsOf>>
    try {
      facts = await rowFactsOf(run, scenario, settings, cwd)
    } catch (error) {
      // A fault profile this version does not know, for one: that scenario cannot be re-run as it ran.
      skipped.push({
        scenarioId: scenario.scenarioId,
        reason: 'unreadable',
        message: (error as Error).message,
      })
      continue
    }
    const { arms, notApplicable } = applicableArms(facts, INTERVENTION_IDS)
    plans.push({ failed: scenario, facts, arms, notApplicable, reruns: (1 + arms.length) * k })
  }
  const budgeted = budget(plans, maxReruns)
  const estimate = costEstimate(run, budgeted, mode, options.prices ?? DEFAULT_PRICES)

  log(
    `explain ${run.document.run.id}: ${failed.length} failed scenario(s) to explain, ${mode} re-runs, k = ${k} per arm, seed ${seed}`,
  )
  const replayedCaller =
    plans.find((plan) => plan.facts.callerReplayed !== null)?.facts.callerReplayed ?? null
  if (replayedCaller !== null) {
    log(
      `  the callers are the recordings in ${replayedCaller} (replay.caller), streamed into the live assistant`,
    )
  }
  for (const plan of plans) {
    log(
      `  ${plan.failed.scenarioId}: unchanged + ${plan.arms.length} intervention(s) ` +
        `(${plan.arms.map((arm) => arm.arm).join(', ') || 'none applies'}) = ${plan.reruns} re-runs`,
    )
  }
  for (const entry of skipped) log(`  ${entry.scenarioId}: not explained (${entry.reason}): ${entry.message}`)
  log(
    `budget: ${budgeted.admittedReruns} of ${budgeted.planned} re-runs fit under the cap of ${maxReruns}` +
      (budgeted.over.length === 0 ? '' : ` (${budgeted.over.length} scenario(s) will not be explained)`) +
      `; ${
        mode === 'offline'
          ? 'offline: free'
          : `estimated cost ${estimate.cost === null ? 'unknown' : `${estimate.cost.toFixed(2)} ${estimate.currency}`}` +
            ` (${estimate.voice_minutes === null ? 'unknown' : estimate.voice_minutes.toFixed(1)} voice minutes; ${estimate.note})`
      }`,
  )

  const reserved = await reserveRunDirectory(
    options.out ?? resolve(run.directory, '..'),
    `${run.document.run.id}-explained`,
    options.now ?? new Date(),
    // The command stops on Ctrl-C itself (cli/explain.ts), writing what finished before it exits.
    { watch: false },
  )
  const directory = reserved.path
  const presetSeed = settings.phase === 'run' ? settings.simulation.seed : null
  const faulted = budgeted.admitted.some((plan) => plan.facts.faults !== null)
  const notExplained: ExplainDocument['not_explained'] = [
    ...skipped.map((entry: SkippedScenario) => ({
      scenario_id: entry.scenarioId,
      reason: entry.reason,
      message: entry.message,
    })),
    ...budgeted.over.map((plan) => ({
      scenario_id: plan.failed.scenarioId,
      reason: 'budget' as const,
      message: `needs ${plan.reruns} re-runs, past the cap of ${maxReruns} (explain.max_reruns, --max-reruns)`,
    })),
  ]
  const explanations: Explanation[] = []
  let executed = 0
  const documentNow = (
    ending: ExplainDocument['completion']['ending'],
    message: string,
  ): ExplainDocument => ({
    explain_version: EXPLAIN_VERSION,
    created_at: (options.now ?? reserved.startedAt).toISOString(),
    run: {
      id: run.document.run.id,
      directory: run.directory,
      module: run.module,
      architecture: run.architecture,
      execution_mode: run.mode,
    },
    mode,
    replayed_caller: replayedCaller,
    seed,
    trials: k,
    trial_variation: trialVariation(run.module, faulted, replayedCaller),
    budget: {
      max_reruns: maxReruns,
      planned_reruns: budgeted.planned,
      admitted_reruns: budgeted.admittedReruns,
      executed_reruns: executed,
      estimate,
    },
    completion: { ending, message },
    explanations: [...explanations],
    not_explained: [...notExplained],
  })

  const runner: ProjectRunner = {
    vitestConfig: options.vitestConfig ?? null,
    project: options.project ?? null,
    configToml: options.config,
    env: options.env ?? process.env,
    cwd,
    ...(options.runVitest === undefined ? {} : { runVitest: options.runVitest }),
  }
  if (budgeted.admitted.length > 0) {
    log(
      `re-running in the Vitest project "${runner.project ?? run.module}"` +
        `${runner.vitestConfig === null ? '' : ` of ${runner.vitestConfig}`} (its spec files' assistant, tools and ` +
        `test body); what it prints: ${join(directory, 'reruns', '<scenario id>', 'vitest.log')}`,
    )
  }
  const scenarioEnv: ScenarioRerunEnvironment = {
    run,
    runner,
    directory,
    settings: childRunOverrides(run, mode, settings),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  }
  for (const plan of budgeted.admitted) {
    if (options.signal?.aborted) break
    const explained = await explainScenario(scenarioEnv, plan, k, seed, presetSeed)
    // Re-runs cut short by the signal are no evidence: the scenario is reported as interrupted below.
    if (options.signal?.aborted) break
    if ('message' in explained) {
      notExplained.push({
        scenario_id: plan.failed.scenarioId,
        reason: 'not_rerun',
        message: explained.message,
      })
      log(`  ${plan.failed.scenarioId}: not explained (not_rerun): ${explained.message}`)
    } else {
      executed += plan.reruns
      explanations.push(explained)
      log(`  ${explained.scenario_id}: ${explained.summary}`)
    }
    await writeJsonArtifact(
      directory,
      EXPLAIN_FILE,
      documentNow('interrupted', `explained ${explanations.length} of ${budgeted.admitted.length} so far`),
    )
  }
  const interrupted = options.signal?.aborted === true
  if (interrupted) {
    const done = new Set(explanations.map((explanation) => explanation.scenario_id))
    for (const plan of budgeted.admitted) {
      if (done.has(plan.failed.scenarioId)) continue
      if (notExplained.some((entry) => entry.scenario_id === plan.failed.scenarioId)) continue
      notExplained.push({
        scenario_id: plan.failed.scenarioId,
        reason: 'interrupted',
        message: 'the explain was stopped before this scenario finished',
      })
    }
  }
  const ending = interrupted ? 'interrupted' : budgeted.over.length > 0 ? 'budget' : 'complete'
  const message =
    ending === 'interrupted'
      ? `interrupted: ${explanations.length} of ${budgeted.admitted.length} scenario(s) explained; the rest are listed as not explained`
      : ending === 'budget'
        ? `stopped at the cap of ${maxReruns} re-runs: ${budgeted.over.map((plan) => plan.failed.scenarioId).join(', ')} not explained (raise explain.max_reruns or --max-reruns, or pick one with --scenario)`
        : `every failed scenario that could be re-run was explained`
  const document = documentNow(ending, message)
  await writeJsonArtifact(directory, EXPLAIN_FILE, document)
  await writeArtifact(directory, SUMMARY_FILE, explainMarkdown(document))
  return { directory, document }
}

/** What the re-runs of every scenario of one explain share. */
interface ScenarioRerunEnvironment {
  run: SourceRun
  runner: ProjectRunner
  /** The explain folder. */
  directory: string
  /** What the run recorded about how it ran, as settings overrides for the project's run. */
  settings: Record<string, Record<string, unknown>>
  signal?: AbortSignal
}

async function explainScenario(
  env: ScenarioRerunEnvironment,
  plan: ScenarioPlan,
  k: number,
  seed: number,
  presetSeed: number | null,
): Promise<Explanation | { message: string }> {
  // A recorded caller (replay.caller) keeps its recorded timing: no lead-in is drawn for it.
  const offsets = env.run.module !== 'run' && plan.facts.callerReplayed === null
  const recorded = { preset: presetSeed, faults: plan.facts.faults?.profile.seed ?? null }
  const draws = Array.from({ length: k }, (_, index) => trialDraws(seed, index + 1, recorded, offsets))
  let reruns: Awaited<ReturnType<typeof rerunInProject>>
  try {
    reruns = await rerunInProject(env.runner, {
      run: env.run,
      plan,
      draws,
      settings: env.settings,
      directory: env.directory,
      ...(env.signal === undefined ? {} : { signal: env.signal }),
    })
  } catch (error) {
    // A folder that cannot be made, Vitest not installed: this scenario is not re-run, the others may be.
    return { message: `explain could not start its re-runs: ${(error as Error).message}` }
  }
  if (!reruns.ran) return { message: reruns.message }
  const arms = [null, ...plan.arms]
  const outcomeOf = (index: number): ArmOutcome => {
    const arm = arms[index] ?? null
    return {
      arm: arm?.arm ?? 'control',
      intervention: arm?.intervention ?? null,
      label: arm?.label ?? 'unchanged',
      target: arm?.target ?? null,
      measure: arm?.measure ?? 'verdict',
      class: arm?.class ?? null,
      reruns: reruns.arms[index] ?? [],
    }
  }
  return explanationOf(
    {
      scenario_id: plan.failed.scenarioId,
      title: plan.failed.title,
      run_rows: { failed_trials: plan.failed.failedTrials, total: plan.failed.rows.length },
      original_failed_checks: failedChecksOf(plan.failed.failedRow),
      not_applicable: plan.notApplicable,
    },
    outcomeOf(0),
    plan.arms.map((_, index) => outcomeOf(index + 1)),
  )
}
