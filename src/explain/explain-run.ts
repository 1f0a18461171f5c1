// `live-evals explain`, the work: read the run, decide per failed scenario which interventions apply, budget the
// re-runs and print the plan before anything starts, then run the unchanged scenario and each intervention k
// times (trial-draws.ts), attribute (attribution.ts), and write explain.json and explain.md into a new folder
// beside the run. explain.json is rewritten after every scenario, so an interrupted explain keeps what finished.
import { join, resolve } from 'node:path'
import { reserveRunDirectory, writeArtifact, writeJsonArtifact } from '../artifacts/index.ts'
import type { AssistantApplication } from '../assistants/application.ts'
import type { PhaseSettings } from '../config/index.ts'
import { DEFAULT_PRICES, type PriceTable } from '../config/prices.ts'
import { phaseModule } from '../phases/registry.ts'
import {
  type InterventionSchedule,
  loadInterventions,
  NO_INTERVENTIONS,
} from '../phases/run/interventions/index.ts'
import { startOfflineLiveServer } from '../testing/live-server/index.ts'
import { type ArmOutcome, explanationOf } from './attribution.ts'
import { applicableArms } from './interventions.ts'
import { explainMarkdown } from './markdown.ts'
import { budget, costEstimate, type ScenarioPlan } from './plan.ts'
import { type RerunEnvironment, rerun } from './rerun.ts'
import { rerunSettings } from './rerun-settings.ts'
import { rowFactsOf } from './row-facts.ts'
import {
  EXPLAIN_FILE,
  EXPLAIN_VERSION,
  type ExplainDocument,
  type Explanation,
  INTERVENTION_IDS,
  type Rerun,
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

/** The bundled example assistant's name (both restaurant copies): the one the command line can re-run. */
export const BUNDLED_ASSISTANT = 'juniper-table'

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
  /** The assistant under test for a run of a user's own assistant (`defineAssistant`); default: the bundled one. */
  assistant?: AssistantApplication | null
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

/** Refuses what the command cannot re-run: a remote client assistant, or another assistant than the one given. */
function checkAssistant(run: SourceRun, assistant: AssistantApplication | null): void {
  const file = join(run.directory, 'results.json')
  const endpoint = run.document.run.configuration.assistant_endpoint
  if (typeof endpoint === 'string' && endpoint !== '') {
    throw new ExplainInputError(
      `${file}: the run evaluated a remote client assistant at ${endpoint}; explain re-runs in-process assistants only`,
    )
  }
  const names = run.document.run.configuration.live_evals?.assistants ?? [BUNDLED_ASSISTANT]
  const expected = assistant?.name ?? BUNDLED_ASSISTANT
  const foreign = names.filter((name) => name !== expected)
  if (foreign.length > 0) {
    throw new ExplainInputError(
      `${file}: the run evaluated the assistant ${foreign.map((name) => `"${name}"`).join(', ')}, which lives in your ` +
        `spec file; the command line re-runs the bundled "${BUNDLED_ASSISTANT}" only (call explainRun() with your assistant)`,
    )
  }
}

/** RUN: the schedule the run had must still hold the barge-ins the failed calls said, or removing one means nothing. */
function checkSchedule(plans: readonly ScenarioPlan[], schedule: InterventionSchedule, file: string | null) {
  for (const plan of plans) {
    const scheduled = new Set((schedule.get(plan.failed.scenarioId) ?? []).map((entry) => entry.id))
    const missing = plan.facts.bargeInsScheduled.filter((id) => !scheduled.has(id))
    if (missing.length > 0) {
      throw new ExplainInputError(
        `${plan.failed.scenarioId} had the scheduled barge-in(s) ${missing.join(', ')}, which ` +
          `${file === null ? 'no simulation.interventions_file names' : `${file} does not hold`}; ` +
          'give the run’s settings with --config (or LIVE_EVALS_INTERVENTIONS)',
      )
    }
  }
}

/** Runs `tasks` at most `limit` at a time; results in the tasks' order. */
async function pooled<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length)
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++
      results[index] = await (tasks[index] as () => Promise<T>)()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker))
  return results
}

export async function explainRun(options: ExplainOptions): Promise<ExplainOutcome> {
  const log = options.log ?? (() => {})
  const cwd = options.cwd ?? process.cwd()
  const run = await readSourceRun(resolve(cwd, options.runDirectory))
  checkAssistant(run, options.assistant ?? null)
  const mode = run.mode === 'offline' ? 'offline' : 'live'
  const settings = rerunSettings(run, mode, {
    config: options.config,
    env: options.env ?? process.env,
    cwd,
    explain: options.explain,
  })
  const { trials: k, max_reruns: maxReruns, seed } = settings.explain
  const { failed, skipped } = await failedScenarios(run, options.scenario)
  const scheduleFile = settings.phase === 'run' ? settings.simulation.interventions_file : null
  const schedule = scheduleFile === null ? NO_INTERVENTIONS : await loadInterventions(scheduleFile, null)

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
  checkSchedule(plans, schedule, scheduleFile)
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

  const offlineServer = mode === 'offline' ? await startOfflineLiveServer() : null
  const env: RerunEnvironment = {
    run,
    phase: phaseModule(run.module),
    settings,
    offlineServer,
    assistant: options.assistant ?? null,
    schedule,
    directory,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  }
  try {
    for (const plan of budgeted.admitted) {
      if (options.signal?.aborted) break
      const explanation = await explainScenario(env, plan, k, seed, presetSeed)
      // Re-runs cut short by the signal are no evidence: the scenario is reported as interrupted below.
      if (options.signal?.aborted) break
      executed += plan.reruns
      explanations.push(explanation)
      log(`  ${explanation.scenario_id}: ${explanation.summary}`)
      await writeJsonArtifact(
        directory,
        EXPLAIN_FILE,
        documentNow('interrupted', `explained ${explanations.length} of ${budgeted.admitted.length} so far`),
      )
    }
  } finally {
    await offlineServer?.close()
  }
  const interrupted = options.signal?.aborted === true
  if (interrupted) {
    const done = new Set(explanations.map((explanation) => explanation.scenario_id))
    for (const plan of budgeted.admitted) {
      if (done.has(plan.failed.scenarioId)) continue
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

async function explainScenario(
  env: RerunEnvironment,
  plan: ScenarioPlan,
  k: number,
  seed: number,
  presetSeed: number | null,
): Promise<Explanation> {
  // A recorded caller (replay.caller) keeps its recorded timing: no lead-in is drawn for it.
  const offsets = env.run.module !== 'run' && plan.facts.callerReplayed === null
  const faults = plan.facts.faults
  const recorded = { preset: presetSeed, faults: faults?.profile.seed ?? null }
  const draws = Array.from({ length: k }, (_, index) => trialDraws(seed, index + 1, recorded, offsets))
  const arms = [null, ...plan.arms]
  const tasks = arms.flatMap((arm) =>
    draws.map(
      (draw, index) => () =>
        rerun(env, { failed: plan.failed, faults, plan: arm, trial: index + 1, draws: draw }),
    ),
  )
  const results: Rerun[] = await pooled(tasks, env.settings.execution.concurrency)
  const outcomeOf = (index: number): ArmOutcome => {
    const arm = arms[index] ?? null
    return {
      arm: arm?.arm ?? 'control',
      intervention: arm?.intervention ?? null,
      label: arm?.label ?? 'unchanged',
      target: arm?.target ?? null,
      measure: arm?.measure ?? 'verdict',
      class: arm?.class ?? null,
      reruns: results.slice(index * k, (index + 1) * k),
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
