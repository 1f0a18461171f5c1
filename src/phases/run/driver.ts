// How a RUN conversation is driven. Offline: the scripted caller and the assistant under test on the offline
// GPT-Live server, on the virtual clock (conversation.ts rehearses the call to time each caller line, then plays
// it once more to observe it). Live: two GPT-Live sessions relayed on one real-time media clock (live/).
//
// Offline the sessions open inside run() (each rehearsal opens its own), so open() only checks what the call
// needs; the timeline and trace a failure leaves are those of the last call played, up to where it stopped when
// that call threw (an offline rule, say: a failure loses nothing), or empty before any. Every offline call then
// passes the offline self-checks (offline-checks.ts) or fails at caller_simulation.
import { assistantModelsFromSettings } from '../../assistants/frontend/models.ts'
import type { RealismOptions } from '../../audio/effects/index.ts'
import type { RunSettings } from '../../config/index.ts'
import { credentialValues } from '../../config/redact.ts'
import type { ToolExecution } from '../../observability/observation.ts'
import { SessionTimeline } from '../../observability/timeline.ts'
import { SessionTrace } from '../../observability/trace.ts'
import { assistantVisibleInput, type Scenario } from '../../scenarios/index.ts'
import type { ScenarioEnv } from '../engine/execution.ts'
import type { ConversationDriver, DriveOptions, OpenConversation } from '../engine/phase-module.ts'
import { scenarioApplicationFor } from '../engine/scenario-application.ts'
import { describeError, StageError } from '../engine/stage.ts'
import { printVerboseTranscript } from '../engine/verbose-transcript.ts'
import { readAssistantFirstPrompt } from './assistant-first-prompt.ts'
import { callerPreset } from './caller-preset.ts'
import { DEFAULT_COMPLETION, runOfflineConversation } from './conversation.ts'
import { interventionsFor, NO_INTERVENTIONS } from './interventions/index.ts'
import { runLiveConversation } from './live/conversation.ts'
import { liveConversationOptions } from './live-options.ts'
import { observeRunConversation } from './observe.ts'
import type { PlayedConversation, RunObserved } from './observed.ts'
import { scriptedCallerLines } from './offline-caller.ts'
import { offlineRunViolations, offlineSelfCheckFailure } from './offline-checks.ts'
import type { CallInProgress } from './scripted-call.ts'
import { traceOfCall, traceOfFailedCall } from './trace.ts'
import { OFFLINE_CALLER_VALIDITY } from './validity.ts'

/** The assistant-first opening prompt; null when the caller speaks first. A file gone since the plan: input_setup. */
async function assistantFirstPrompt(settings: RunSettings): Promise<string | null> {
  try {
    return await readAssistantFirstPrompt(settings)
  } catch (error) {
    throw new StageError('input_setup', describeError(error), { cause: error })
  }
}

/** Plays the call: offline with the scripted caller (rehearsed), live with two GPT-Live sessions. */
async function playConversation(
  scenario: Scenario,
  env: ScenarioEnv<RunSettings>,
  options: DriveOptions,
  prompt: string | null,
  preset: RealismOptions,
  onCall: (call: CallInProgress) => void,
): Promise<PlayedConversation> {
  const { settings, architecture } = env
  const scheduled = interventionsFor(env.interventions ?? NO_INTERVENTIONS, scenario.id)
  if (settings.execution.mode === 'live') {
    if (scheduled.length > 0) {
      throw new StageError(
        'input_setup',
        `Scenario ${scenario.id} has scheduled interventions, which only the offline scripted caller carries out; the live caller decides for itself. Remove simulation.interventions_file for live runs.`,
      )
    }
    return runLiveConversation(
      liveConversationOptions(scenario, env, options.application, prompt, options.signal),
    )
  }
  const server = env.offlineServer
  if (server === null) throw new StageError('connection', 'Offline RUN needs the offline GPT-Live server.')
  const parameters = scenario.simulation_parameters as NonNullable<Scenario['simulation_parameters']>
  const visibleInput = assistantVisibleInput(scenario)
  return runOfflineConversation({
    setup: {
      server,
      visibleInput,
      architecture,
      models: assistantModelsFromSettings(settings.models),
      stepMs: settings.simulation.tick_ms,
      assistantFirstPrompt: prompt,
      preset,
      onCall,
    },
    lines: scriptedCallerLines(parameters, scenario.input.text),
    interventions: scheduled,
    application: options.application,
    // Each rehearsal draws the same faults as the observed call: its own application under the same profile.
    rehearsalApplication: () => scenarioApplicationFor(env, scenario),
    completion: {
      ...DEFAULT_COMPLETION,
      drainMs: settings.simulation.drain_ms,
      maxDurationMs: settings.simulation.max_duration_seconds * 1000,
    },
  })
}

/**
 * What the caller makes of a played call: a live caller's own validity and a failure after the call (pending work,
 * cleanup); the scripted caller's fixed validity and the offline self-checks' failure.
 */
function callerOutcome(
  played: PlayedConversation,
  scenario: Scenario,
  env: ScenarioEnv<RunSettings>,
  executions: readonly ToolExecution[],
): Pick<RunObserved, 'validity' | 'callerMode' | 'failure'> {
  if ('caller' in played) {
    const { failure } = played
    return {
      validity: played.validity,
      callerMode: 'gpt-live',
      failure: failure === null ? null : { stage: failure.stage, message: failure.message },
    }
  }
  const { application } = env.architecture
  const violations = offlineRunViolations(played, scenario.simulation_parameters?.agenda ?? [], executions, {
    ownRulesOf: application.offlineRules === true ? application.name : null,
    maxDurationSeconds: env.settings.simulation.max_duration_seconds,
  })
  return {
    validity: OFFLINE_CALLER_VALIDITY,
    callerMode: 'offline_fixture',
    failure: offlineSelfCheckFailure(violations),
  }
}

export const runDriver: ConversationDriver<RunObserved, RunSettings> = {
  async open(scenario, env, _caller, options): Promise<OpenConversation<RunObserved>> {
    const settings = env.settings
    if (settings.execution.mode === 'offline' && env.offlineServer === null) {
      throw new StageError('connection', 'Offline RUN needs the offline GPT-Live server.')
    }
    if (scenario.simulation_parameters === null) {
      throw new StageError(
        'input_setup',
        `Scenario ${scenario.id} has no simulation_parameters; RUN needs them.`,
      )
    }
    const prompt = await assistantFirstPrompt(settings)
    const preset = callerPreset(settings)
    let timeline = new SessionTimeline({ mode: settings.execution.mode === 'live' ? 'real_time' : 'virtual' })
    let trace = new SessionTrace({
      redactFields: settings.redact_fields,
      secretValues: credentialValues(settings),
    })
    // The offline call being played (each rehearsal, then the observed call): what a throw leaves.
    let playing: CallInProgress | null = null
    return {
      get timeline() {
        return timeline
      },
      get trace() {
        return trace
      },
      async run() {
        options.signal?.throwIfAborted()
        let played: PlayedConversation
        try {
          played = await playConversation(scenario, env, options, prompt, preset, (call) => {
            playing = call
          })
        } catch (error) {
          if (playing !== null) {
            timeline = playing.timeline
            trace = traceOfFailedCall(playing, error, trace)
          }
          throw error
        }
        timeline = played.call.timeline
        trace = traceOfCall(played, trace)
        const observed = observeRunConversation(played)
        printVerboseTranscript(scenario, env, options, { timeline, observation: observed.observation }, 'RUN')
        return {
          conversation: played,
          ...observed,
          ...callerOutcome(played, scenario, env, observed.observation.tool_executions),
          timeline,
          trace,
          sessionId: played.call.assistant.started.session.id,
        }
      },
      async abort() {
        // Both drivers close every session they opened when a call ends or fails (scripted-call.ts, live/closing.ts).
      },
    }
  },
}
