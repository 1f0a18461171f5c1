// One arm of an explain, carried out where the scenario runs: in the project's own Vitest run, the scenario
// fixture's environment (src/vitest/fixtures.ts) with the arm's one change and the trial's draws applied. Everything
// else (the spec's assistant and tools, its test body, the offline server, the judge being off) is the run's own.
import OpenAI from 'openai'
import type { AssistantApplication } from '../assistants/application.ts'
import type { OfflineBehaviour } from '../assistants/offline-behaviour.ts'
import { SpeechSynthesizer } from '../audio/synthesis.ts'
import type { PhaseSettings } from '../config/index.ts'
import type { ScenarioFaultProfile } from '../faults/scenario-profile.ts'
import { architectureFor } from '../phases/engine/architecture-choice.ts'
import type { CallerSource } from '../phases/engine/caller.ts'
import { syntheticCallerSource, ttsCallerSource } from '../phases/engine/caller-sources.ts'
import type { ScenarioEnv } from '../phases/engine/execution.ts'
import type { PhaseModule } from '../phases/engine/phase-module.ts'
import type { InterventionSchedule } from '../phases/run/interventions/index.ts'
import type { AssistantArchitecture } from '../vitest/settings.ts'
import { RESULT_FAULT_KINDS } from './interventions.ts'
import type { ArmChange } from './rerun-plan.ts'
import { offsetCallerSource, type TrialDraws } from './trial-draws.ts'

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

function scheduleFor(
  schedule: InterventionSchedule | undefined,
  scenarioId: string,
  change: ArmChange | null,
): InterventionSchedule | undefined {
  if (change?.kind !== 'remove_barge_in' || schedule === undefined) return schedule
  const kept = (schedule.get(scenarioId) ?? []).filter((intervention) => intervention.id !== change.id)
  return new Map([...schedule, [scenarioId, kept]])
}

/** Live: the scenario's text through text-to-speech, cached in the arm's run folder. */
function liveTextCaller(settings: PhaseSettings, runDirectory: string): CallerSource {
  const apiKey = settings.credentials.openai_api_key
  if (apiKey === null) {
    throw new Error('OPENAI_API_KEY is required to speak the scenario text in a live explain')
  }
  const speech = new SpeechSynthesizer({
    client: new OpenAI({ apiKey }),
    cacheDir: `${runDirectory}/.speech`,
  })
  return ttsCallerSource(speech, settings.models)
}

export interface ArmOfTest {
  phase: PhaseModule
  scenarioId: string
  architecture: AssistantArchitecture
  /** The spec's assistant; null: the bundled restaurant example. */
  assistant: AssistantApplication | null
  change: ArmChange | null
  draws: TrialDraws
  /** The fault profile the failed row ran under (with its recorded seed); null when it ran clean. */
  faults: ScenarioFaultProfile | null
}

/** The scenario's environment as the run built it, with the arm's change and the trial's draws applied. */
export function armedScenarioEnv(
  env: ScenarioEnv<PhaseSettings>,
  arm: ArmOfTest,
): ScenarioEnv<PhaseSettings> {
  const { change, draws } = arm
  const settings = settingsFor(env.settings, change, draws)
  const mode = settings.execution.mode
  let callerSource = settings === env.settings ? env.callerSource : arm.phase.callerSource(settings)
  if (change?.kind === 'text_caller') {
    callerSource = mode === 'offline' ? syntheticCallerSource : liveTextCaller(settings, env.runDirectory)
  }
  let architecture = env.architecture
  if (change?.kind === 'delegation') {
    const application = arm.assistant ?? architectureFor(arm.architecture, settings).application
    architecture = architectureFor(arm.architecture, settings, {
      application: withDelegationPolicy(application, change.policy, mode),
    })
  }
  const interventions = scheduleFor(env.interventions, arm.scenarioId, change)
  return {
    ...env,
    settings,
    architecture,
    callerSource: offsetCallerSource(callerSource, draws.caller_offset_ms),
    ...(interventions === undefined ? {} : { interventions }),
    faults: faultsFor(arm.faults, change, draws),
    faultsProblem: null,
  }
}
