// One re-run of a failed scenario: the unchanged scenario (the control) or one intervention, for one trial's
// draws, through the same engine a run uses (runScenario: caller source, drive, observe, assess, record) and the
// default test body's verdict. Its artifacts go to their own folder inside the explain folder,
// `reruns/<scenario id>/<arm>/`, one trial per `__t<i>` entry, as a trials run lays them out.
import { rm } from 'node:fs/promises'
import { join, relative } from 'node:path'
import OpenAI from 'openai'
import { makePrivateDirectories } from '../artifacts/private-directories.ts'
import type { AssistantApplication } from '../assistants/application.ts'
import type { OfflineBehaviour } from '../assistants/offline-behaviour.ts'
import { SpeechSynthesizer } from '../audio/synthesis.ts'
import type { PhaseSettings } from '../config/index.ts'
import type { ScenarioFaultProfile } from '../faults/scenario-profile.ts'
import { architectureFor } from '../phases/engine/architecture-choice.ts'
import type { CallerSource } from '../phases/engine/caller.ts'
import { syntheticCallerSource, ttsCallerSource } from '../phases/engine/caller-sources.ts'
import type { ScenarioEnv, ScenarioExecution } from '../phases/engine/execution.ts'
import type { PhaseModule } from '../phases/engine/phase-module.ts'
import { runScenario } from '../phases/engine/run-scenario.ts'
import { scenarioApplicationFor } from '../phases/engine/scenario-application.ts'
import type { InterventionSchedule } from '../phases/run/interventions/index.ts'
import { type LoadedScenario, scenarioType } from '../scenarios/index.ts'
import type { OfflineLiveServer } from '../testing/live-server/index.ts'
import { defaultBodyVerdict } from '../vitest/default-body-verdict.ts'
import { scenarioRunOf } from '../vitest/scenario-run.ts'
import { type ArmChange, type ArmPlan, RESULT_FAULT_KINDS } from './interventions.ts'
import type { Rerun } from './schema.ts'
import { type FailedScenario, failedChecksOf, failedDimensionsOf, type SourceRun } from './source-run.ts'
import { failureResolved } from './taxonomy.ts'
import { offsetCallerSource, type TrialDraws } from './trial-draws.ts'

/** Everything the re-runs of one explain share. */
export interface RerunEnvironment {
  run: SourceRun
  phase: PhaseModule
  /** The run's settings as reconstructed (rerun-settings.ts): offline or live, the run's models and clock. */
  settings: PhaseSettings
  /** Offline: the offline GPT-Live server every re-run talks to; null live. */
  offlineServer: OfflineLiveServer | null
  /** The assistant under test; null: the bundled restaurant in the run's architecture. */
  assistant: AssistantApplication | null
  /** RUN: the scheduled caller interventions the run had (simulation.interventions_file). */
  schedule: InterventionSchedule
  /** The explain folder. */
  directory: string
  signal?: AbortSignal
}

/** Said to the live voice model for a delegation intervention (offline the behaviour is changed instead). */
const DELEGATION_STEERING = {
  suppress:
    'For this call only: answer every caller request yourself. Do not delegate anything to your backend.',
  force: 'For this call only: delegate every caller request to your backend before you answer it.',
} as const

/** The offline behaviour with every delegation suppressed: it never calls a tool and answers itself. */
function withoutDelegation(behaviour: OfflineBehaviour): OfflineBehaviour {
  return {
    inferToolCall: () => null,
    directAnswer: (text, earlier) => behaviour.directAnswer(text, earlier),
    finalAnswer: (output) => behaviour.finalAnswer(output),
    ...(behaviour.reasonedReply === undefined
      ? {}
      : { reasonedReply: (text, earlier) => behaviour.reasonedReply?.(text, earlier) ?? null }),
  }
}

/** The application with a delegation policy: offline through its behaviour, live through its voice prompt. */
function withDelegationPolicy(
  application: AssistantApplication,
  policy: 'suppress' | 'force',
  mode: 'offline' | 'live',
): AssistantApplication {
  if (mode === 'live') {
    return { ...application, voicePrompt: `${application.voicePrompt}\n\n${DELEGATION_STEERING[policy]}` }
  }
  const offline = application.offlineBehaviour
  if (policy === 'force' || offline === undefined) return application
  return {
    ...application,
    offlineBehaviour: (context) => withoutDelegation(offline.call(application, context)),
  }
}

/** The settings of one re-run: the trial's preset seed, and the arm's change where it is a setting. */
function settingsFor(base: PhaseSettings, change: ArmChange | null, draws: TrialDraws): PhaseSettings {
  if (base.phase !== 'run') return base
  const simulation = { ...base.simulation }
  if (draws.preset_seed !== null) simulation.seed = draws.preset_seed
  if (change?.kind === 'caller_condition') simulation.condition = change.condition
  return { ...base, simulation }
}

/**
 * The fault profile of one re-run: the row's, with the trial's seed; without its result faults (their rules never
 * hit, the others draw as before) for `correct_tool_result`; none for `faults_off`.
 */
export function faultsFor(
  row: ScenarioFaultProfile | null,
  change: ArmChange | null,
  draws: TrialDraws,
): ScenarioFaultProfile | null {
  if (row === null || (change?.kind === 'faults' && change.off === 'all')) return null
  const withoutResults = change?.kind === 'faults' && change.off === 'results'
  const rules = row.profile.rules.map((rule) =>
    withoutResults && RESULT_FAULT_KINDS.has(rule.kind) ? { ...rule, rate: 0 } : rule,
  )
  return { ...row, profile: { ...row.profile, seed: draws.fault_seed ?? row.profile.seed, rules } }
}

function scheduleFor(schedule: InterventionSchedule, scenarioId: string, change: ArmChange | null) {
  if (change?.kind !== 'remove_barge_in') return schedule
  const kept = (schedule.get(scenarioId) ?? []).filter((intervention) => intervention.id !== change.id)
  return new Map([...schedule, [scenarioId, kept]])
}

/** Live: the scenario's text through text-to-speech, cached in the explain folder. */
function liveTextCaller(settings: PhaseSettings, directory: string): CallerSource {
  const apiKey = settings.credentials.openai_api_key
  if (apiKey === null)
    throw new Error('OPENAI_API_KEY is required to speak the scenario text in a live explain')
  const speech = new SpeechSynthesizer({
    client: new OpenAI({ apiKey }),
    cacheDir: join(directory, '.speech'),
  })
  return ttsCallerSource(speech, settings.models)
}

function callerSourceFor(
  env: RerunEnvironment,
  settings: PhaseSettings,
  change: ArmChange | null,
): CallerSource {
  if (change?.kind !== 'text_caller') return env.phase.callerSource(settings)
  return settings.execution.mode === 'offline'
    ? syntheticCallerSource
    : liveTextCaller(settings, env.directory)
}

/**
 * The recordings of trial 1 of each arm are kept (to listen to the control against an intervention); those of
 * later trials are removed, their transcripts, events and details kept: a WAV triple is megabytes, and k of them
 * per arm per scenario would make an explain folder hundreds of megabytes.
 */
async function dropRepeatedAudio(runDirectory: string, execution: ScenarioExecution, trial: number) {
  if (trial === 1) return
  const { input_audio, output_audio, conversation_audio } = execution.row.artifacts
  for (const path of [input_audio, output_audio, conversation_audio]) {
    if (path !== null) await rm(join(runDirectory, path), { force: true })
  }
}

export interface RerunRequest {
  failed: FailedScenario
  /** The fault profile the failed row ran under (its record, its seed); null when it ran clean. */
  faults: ScenarioFaultProfile | null
  /** null: the control (nothing changed). */
  plan: ArmPlan | null
  trial: number
  draws: TrialDraws
}

/** Where a re-run's artifacts go: `reruns/<scenario id>/<arm>` in the explain folder. */
export function armDirectory(directory: string, scenarioId: string, arm: string): string {
  return join(directory, 'reruns', scenarioId, arm)
}

/**
 * One re-run. Whatever fails while it is set up (a folder, a missing key for the text-to-speech caller) is that
 * re-run's infrastructure error, naming what failed, never the end of the explain: the engine already turns a
 * failure inside the conversation into one.
 */
export async function rerun(env: RerunEnvironment, request: RerunRequest): Promise<Rerun> {
  try {
    return await rerunOnce(env, request)
  } catch (error) {
    return {
      trial: request.trial,
      draws: request.draws,
      status: 'infrastructure_error',
      resolved: null,
      failed_checks: [],
      failed_dimensions: [],
      error: {
        stage: 'input_setup',
        message: `explain could not set up this re-run: ${(error as Error).message}`,
      },
      details: null,
    }
  }
}

async function rerunOnce(env: RerunEnvironment, request: RerunRequest): Promise<Rerun> {
  const { failed, plan, trial, draws } = request
  const change = plan?.change ?? null
  const settings = settingsFor(env.settings, change, draws)
  const mode = settings.execution.mode
  const scenario: LoadedScenario = change?.kind === 'scenario' ? change.scenario : failed.scenario
  const base = env.assistant ?? architectureFor(env.run.architecture, settings).application
  const application =
    change?.kind === 'delegation' ? withDelegationPolicy(base, change.policy, mode) : env.assistant
  const architecture = architectureFor(
    env.run.architecture,
    settings,
    application === null ? {} : { application },
  )
  const runDirectory = armDirectory(env.directory, failed.scenarioId, plan?.arm ?? 'control')
  await makePrivateDirectories(runDirectory, 'explain re-run folder')
  const scenarioEnv: ScenarioEnv<PhaseSettings> = {
    settings,
    runDirectory,
    offlineServer: env.offlineServer,
    architecture,
    callerSource: offsetCallerSource(callerSourceFor(env, settings, change), draws.caller_offset_ms),
    judge: null,
    interventions: scheduleFor(env.schedule, scenario.id, change),
    faults: faultsFor(request.faults, change, draws),
    trial,
  }
  const execution: ScenarioExecution = await runScenario(env.phase, scenario, scenarioEnv as never, {
    application: scenarioApplicationFor(scenarioEnv, scenario),
    ...(env.signal === undefined ? {} : { signal: env.signal }),
  })
  await dropRepeatedAudio(runDirectory, execution, trial)
  const row = defaultBodyVerdict(
    scenarioRunOf(
      {
        scenarioId: scenario.id,
        architecture: architecture.name,
        expected: scenario.expected,
        failure: execution.failure,
        row: execution.row,
        detailsPath: null,
      },
      execution,
    ),
    { phase: env.run.module, scenarioType: scenarioType(scenario), judged: false },
  )
  const failedChecks = failedChecksOf(row)
  return {
    trial,
    draws,
    status: row.status,
    resolved: failureResolved(
      { status: row.status, failed_checks: failedChecks },
      failedChecksOf(failed.failedRow),
    ),
    failed_checks: failedChecks,
    failed_dimensions: failedDimensionsOf(row),
    error: row.error,
    details:
      row.artifacts.details === null
        ? null
        : relative(env.directory, join(runDirectory, row.artifacts.details)),
  }
}
