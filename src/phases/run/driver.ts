// How a RUN conversation is driven. Offline: the scripted caller and the assistant under test on the offline
// GPT-Live server, on the virtual clock (conversation.ts rehearses the call to time each caller line, then plays
// it once more to observe it). Live: two GPT-Live sessions relayed on one real-time media clock (live/).
//
// Offline the sessions open inside run() (each rehearsal opens its own), so open() only checks what the call
// needs; the timeline and trace a failure leaves are those of the last call played, or empty before any.
import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { assistantModelsFromSettings } from '../../assistants/frontend/models.ts'
import { type RealismOptions, RealismProcessor } from '../../audio/effects/index.ts'
import type { RunSettings } from '../../config/index.ts'
import { credentialValues } from '../../config/redact.ts'
import { consoleTranscript } from '../../observability/console-transcript.ts'
import { SessionTimeline } from '../../observability/timeline.ts'
import { SessionTrace } from '../../observability/trace.ts'
import { assistantVisibleInput } from '../../scenarios/index.ts'
import type { ConversationDriver, OpenConversation } from '../engine/phase-module.ts'
import { describeError, StageError } from '../engine/stage.ts'
import { DEFAULT_COMPLETION, type OfflineConversation, runOfflineConversation } from './conversation.ts'
import { interventionsFor, NO_INTERVENTIONS } from './interventions/index.ts'
import { observeRunConversation } from './observe.ts'
import type { RunObserved } from './observed.ts'
import { scriptedCallerLines } from './offline-caller.ts'
import { traceOfCall } from './trace.ts'
import { OFFLINE_CALLER_VALIDITY } from './validity.ts'

/** The assistant-first opening prompt, read unchanged from its file; null when the caller speaks first. */
export async function assistantFirstPrompt(settings: RunSettings): Promise<string | null> {
  const file = settings.simulation.assistant_first_prompt_file
  if (file === null) return null
  try {
    const text = await readFile(file, 'utf8')
    if (text.trim() === '') throw new Error('the file is empty')
    return text
  } catch (error) {
    throw new StageError(
      'input_setup',
      `simulation.assistant_first_prompt_file ${file}: cannot use it as the assistant-first opening (${describeError(error)})`,
      { cause: error },
    )
  }
}

/**
 * The acoustic preset on the caller's voice (simulation.condition, seed), checked before any session opens; null
 * for clean, so a clean call's caller track is exactly the synthetic voice.
 */
export async function callerPreset(settings: RunSettings): Promise<RealismOptions | null> {
  const { condition, seed } = settings.simulation
  if (condition === 'clean') return null
  const options: RealismOptions = { condition, seed, baseDirectory: dirname(settings.config_file) }
  try {
    ;(await RealismProcessor.create(options)).close()
  } catch (error) {
    throw new StageError(
      'input_setup',
      `simulation.condition ${JSON.stringify(condition)} (seed ${seed}): ${describeError(error)}`,
      { cause: error },
    )
  }
  return options
}

export const runDriver: ConversationDriver<RunObserved, RunSettings> = {
  async open(scenario, env, _caller, options): Promise<OpenConversation<RunObserved>> {
    const settings = env.settings
    if (settings.execution.mode === 'live') {
      throw new StageError(
        'connection',
        'Live RUN needs the dual-session driver, which this build does not include yet; run RUN offline (LIVE_EVALS_MODE=offline).',
      )
    }
    const server = env.offlineServer
    if (server === null) throw new StageError('connection', 'Offline RUN needs the offline GPT-Live server.')
    const parameters = scenario.simulation_parameters
    if (parameters === null) {
      throw new StageError(
        'input_setup',
        `Scenario ${scenario.id} has no simulation_parameters; RUN needs them.`,
      )
    }
    const prompt = await assistantFirstPrompt(settings)
    const preset = await callerPreset(settings)
    const visibleInput = assistantVisibleInput(scenario)
    const architecture = env.architecture
    let timeline = new SessionTimeline({ mode: 'virtual' })
    let trace = new SessionTrace({
      redactFields: settings.redact_fields,
      secretValues: credentialValues(settings),
    })
    let played: OfflineConversation | null = null
    return {
      get timeline() {
        return timeline
      },
      get trace() {
        return trace
      },
      async run() {
        options.signal?.throwIfAborted()
        played = await runOfflineConversation({
          setup: {
            server,
            visibleInput,
            architecture,
            models: assistantModelsFromSettings(settings.models),
            stepMs: settings.simulation.tick_ms,
            assistantFirstPrompt: prompt,
            preset,
          },
          lines: scriptedCallerLines(parameters, scenario.input.text),
          interventions: interventionsFor(env.interventions ?? NO_INTERVENTIONS, scenario.id),
          application: options.application,
          rehearsalApplication: () => architecture.createApplication(visibleInput),
          completion: {
            ...DEFAULT_COMPLETION,
            drainMs: settings.simulation.drain_ms,
            maxDurationMs: settings.simulation.max_duration_seconds * 1000,
          },
        })
        timeline = played.call.timeline
        trace = traceOfCall(played, trace)
        const observed = observeRunConversation(played)
        if (settings.execution.verbose) {
          const heading = `${scenario.id} (${architecture.name} assistant, RUN)`
          const { tool_executions: executions, termination_reason: ended } = observed.observation
          console.log(consoleTranscript(heading, timeline, executions, ended))
        }
        return {
          conversation: played,
          ...observed,
          validity: OFFLINE_CALLER_VALIDITY,
          callerMode: 'offline_fixture',
          timeline,
          trace,
          sessionId: played.call.assistant.started.session.id,
        }
      },
      async abort() {
        // Every offline call closes its own sessions when it ends or fails (scripted-call.ts).
      },
    }
  },
}
