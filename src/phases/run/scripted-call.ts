// One offline call with a fixed caller plan: the assistant under test on the offline GPT-Live server, hearing
// the plan through its oracle; the scripted caller's voice and its listener on one virtual media clock (the
// caller hears the assistant one step later through an AudioRelay); the session timeline recording both sides.
// A `watch` callback looks at the call after every step and says when to stop. The conversation driver
// (conversation.ts) uses it to rehearse (find when the caller's next line falls) and for the call itself.
import type { AssistantArchitecture, ScenarioApplication } from '../../assistants/architectures/index.ts'
import {
  type AssistantUnderTest,
  openAssistantUnderTest,
  registerOfflineAssistant,
} from '../../assistants/assistant-session.ts'
import type { AssistantModels } from '../../assistants/frontend/index.ts'
import { type RealismOptions, RealismProcessor, type RealismSummary } from '../../audio/effects/index.ts'
import { DownlinkFaults, UplinkLoss } from '../../faults/transport.ts'
import type { LiveSessionOutcome } from '../../live/outcome.ts'
import { SessionTimeline } from '../../observability/timeline.ts'
import type { AssistantVisibleInput } from '../../scenarios/visible.ts'
import type { OfflineLiveServer } from '../../testing/live-server/index.ts'
import { MediaClock } from '../engine/media-clock.ts'
import { describeError, StageError } from '../engine/stage.ts'
import { recordAssistantEvents } from './assistant-events.ts'
import { AssistantListener, type PlannedUtterance, ScriptedCallerVoice } from './offline-caller.ts'
import { OfflineRuleWatch } from './offline-rule-watch.ts'
import { SpeechRelay } from './speech-relay.ts'

export interface ScriptedCallSetup {
  /** With `hear`, a call can take more of the plan while it runs (CallState.extendPlan: the one-pass rehearsal). */
  server: Pick<OfflineLiveServer, 'registerSession' | 'baseURL'> & Partial<Pick<OfflineLiveServer, 'hear'>>
  visibleInput: AssistantVisibleInput
  architecture: AssistantArchitecture
  models: AssistantModels
  stepMs: number
  /** Assistant-first calls: sent as commentary with `delegation_id: null` once the session started. */
  assistantFirstPrompt: string | null
  /**
   * The run's acoustic preset on the caller's voice, applied frame by frame before the assistant gets it (a fresh,
   * seeded processor per call, so every rehearsal hears the same bytes); null, absent or `clean`: the voice as is.
   */
  preset?: RealismOptions | null
  /**
   * Called once the call's assistant session is open and its clock exists, before the first step: the call as it
   * stands, for whoever must keep what it played should it throw (the driver writes a failed call's artifacts).
   */
  onCall?: (call: CallInProgress) => void
}

/** A call being played: what it has recorded so far. */
export interface CallInProgress {
  readonly assistant: AssistantUnderTest
  readonly timeline: SessionTimeline
  /** The caller's plan as the call plays it (extendPlan adds to it). */
  readonly plan: readonly PlannedUtterance[]
  /** The media clock now: when the call stopped, once it threw. */
  nowMs(): number
}

/** What the watcher sees after each step. */
export interface CallState {
  nowMs: number
  listener: AssistantListener
  /** A delegation was created and its backend work is not over. */
  assistantBusy: boolean
  /** The assistant's voice arrived and the caller has not heard all of it yet (silence does not count). */
  bufferedSpeech: boolean
  assistant: AssistantUnderTest
  timeline: SessionTimeline
  /**
   * The assistant's audio the caller hears at the start of the next step (taken from the relay now; the next
   * step hears exactly it). After calling it, the call's bufferedSpeech no longer counts it: rehearsals only.
   */
  upcoming: () => Int16Array
  /**
   * Adds an utterance to the plan while the call runs: the caller's voice says it and the server's oracle hears
   * it, exactly as if it had been planned from the start, provided it starts after the server's clock (the
   * caller audio sent so far, `nowMs`). null when the server cannot take utterances during a call.
   */
  extendPlan: ((utterance: PlannedUtterance) => void) | null
}

export interface PlayedCall {
  assistant: AssistantUnderTest
  timeline: SessionTimeline
  listener: AssistantListener
  /** The media clock when the call stopped. */
  endedAtMs: number
  /** The assistant's voice had arrived that the caller had not heard yet when the call stopped. */
  bufferedSpeechAtEnd: boolean
  /** Completion time (media clock) of each execution, by call id, stamped at the step it was first seen. */
  executionTimes: Map<string, number>
  delegationIds: string[]
  closeOutcome: LiveSessionOutcome
  stoppedBy: 'watcher' | 'step_limit'
  /**
   * Under a preset: when the caller spoke, measured on its clean voice (noise never counts as caller speech),
   * and the preset's metadata. null when the call was clean (the recorded caller track is the clean voice).
   */
  realism?: RealismSummary | null
}

export async function playScriptedCall(
  setup: ScriptedCallSetup,
  application: ScenarioApplication,
  plan: readonly PlannedUtterance[],
  watch: (state: CallState) => boolean,
  maxSteps: number,
): Promise<PlayedCall> {
  const timeline = new SessionTimeline({ mode: 'virtual' })
  const planned = [...plan] // extendPlan adds to this copy, which the caller's voice reads
  // Under a fault profile the line may lose a burst of the caller's words (what the server hears, and the audio
  // it gets) and may cut or stall the assistant's voice on its way to the caller (what the caller hears).
  const faults = application.faults
  faults?.timers.useVirtualClock()
  const uplink = faults === null ? null : new UplinkLoss(faults)
  const downlink = faults === null ? null : new DownlinkFaults(faults)
  const heardByServer = (utterances: readonly PlannedUtterance[]) => {
    const spoken = utterances.map(({ text, startMs, endMs }) => ({ text, startMs, endMs }))
    return uplink === null ? spoken : uplink.hear(spoken)
  }
  const token = registerOfflineAssistant(
    setup.server,
    setup.visibleInput,
    setup.architecture,
    heardByServer(plan),
    { sessionFaults: faults },
  )
  let assistant: AssistantUnderTest
  try {
    assistant = await openAssistantUnderTest({
      visibleInput: setup.visibleInput,
      architecture: setup.architecture,
      models: setup.models,
      connection: { apiKey: token, baseURL: setup.server.baseURL, allowInsecureLoopback: true },
      clock: () => timeline.nowMs(),
      application,
      // Its voice goes to the relay as it arrives (recordAssistantEvents); the trace needs only each delta's size.
      keepOutputAudio: false,
    })
  } catch (error) {
    throw new StageError('session_start', `The assistant session did not start: ${describeError(error)}`, {
      cause: error,
    })
  }
  const relay = new SpeechRelay()
  const { delegationIds, stop } = recordAssistantEvents(assistant.session, timeline, {
    onAudio(samples, receivedAtMs) {
      timeline.assistantAudioReceived(receivedAtMs, samples)
      relay.push(samples)
    },
    inputCaptions: true,
  })
  if (setup.assistantFirstPrompt !== null) {
    assistant.session.send({
      type: 'session.commentary.append',
      content: setup.assistantFirstPrompt,
      delegation_id: null,
    })
  }
  const clock = new MediaClock({ mode: 'virtual', stepMs: setup.stepMs })
  setup.onCall?.({ assistant, timeline, plan: planned, nowMs: () => clock.nowMs })
  let processor: RealismProcessor | null = null
  try {
    processor =
      setup.preset == null || setup.preset.condition === 'clean'
        ? null
        : await RealismProcessor.create(setup.preset)
  } catch (error) {
    stop()
    await assistant.close()
    throw new StageError('input_setup', `The acoustic preset cannot be applied: ${describeError(error)}`, {
      cause: error,
    })
  }
  const voice = new ScriptedCallerVoice(planned)
  const hear = setup.server.hear
  const extendPlan =
    hear === undefined
      ? null
      : (utterance: PlannedUtterance) => {
          if (utterance.startMs <= clock.nowMs) {
            throw new Error(
              `extendPlan: the utterance at ${utterance.startMs} ms does not start after the clock (${clock.nowMs} ms)`,
            )
          }
          planned.push(utterance)
          for (const heard of heardByServer([utterance])) hear.call(setup.server, token, heard)
        }
  const stepSamples = (setup.stepMs * 24_000) / 1000
  let prefetched: Int16Array | null = null
  // What the caller hears of the assistant's voice: the relay, through the line's faults when there are any.
  const heardFromRelay = (atMs: number) =>
    downlink === null ? relay.take(stepSamples) : downlink.take(relay, stepSamples, atMs)
  const upcoming = () => {
    prefetched ??= heardFromRelay(clock.nowMs)
    return prefetched
  }
  const listener = new AssistantListener()
  const executionTimes = new Map<string, number>()
  let seenExecutions = 0
  const callerStream = {
    label: 'assistant',
    session: assistant.session,
    next: (samples: number) => {
      const clean = voice.next(samples)
      const processed = processor === null ? clean : processor.process(clean)
      const heard = uplink === null ? processed : uplink.apply(processed, clock.nowMs)
      timeline.callerAudioSent(heard)
      return heard
    },
  }
  let stoppedBy: PlayedCall['stoppedBy'] = 'step_limit'
  const ruleWatch = new OfflineRuleWatch(assistant)
  try {
    for (let step = 0; step < maxSteps; step++) {
      // What the caller hears this step: the assistant's voice that arrived before it (one step of relay).
      const heardAt = clock.nowMs
      listener.hear(heardAt, prefetched ?? heardFromRelay(heardAt))
      prefetched = null
      await clock.step([callerStream])
      ruleWatch.throwIfThrown()
      // Work a fault holds back (a slow tool, a stalled backend) is due on this clock.
      faults?.timers.advanceTo(clock.nowMs)
      // The records (a deep copy) only when there are new ones: the log only grows. A record without a call_id (a
      // remote service's) gets a key from the count so far each time new records arrive (before: at every step).
      // Copying them every step was 2% of `npx node --cpu-prof bench/run-offline.ts`.
      const executionCount = assistant.tools.executionCount()
      if (executionCount !== seenExecutions) {
        seenExecutions = executionCount
        for (const record of assistant.tools.executions()) {
          const id = record.call_id ?? `${record.name}#${executionTimes.size}`
          if (!executionTimes.has(id)) executionTimes.set(id, clock.nowMs)
        }
      }
      for (const id of delegationIds) {
        if (assistant.delegationFinished(id)) timeline.delegationSettled(id, clock.nowMs)
      }
      if (delegationIds.length > 0) ruleWatch.look()
      // Busy until the work is over and its answer had time to reach the caller: the caller hears the relay a
      // step late, so an answer starting as the work ends (after a slow tool, say) is not talked over. The
      // timeline holds each delegation's span (one per id in delegationIds) and the step it first settled at.
      const assistantBusy = timeline.delegations.some(
        (span) => span.settledMs === null || clock.nowMs < span.settledMs + 2 * setup.stepMs,
      )
      const state = { nowMs: clock.nowMs, listener, assistantBusy, assistant, timeline, upcoming, extendPlan }
      if (watch({ ...state, bufferedSpeech: relay.bufferedSpeech })) {
        stoppedBy = 'watcher'
        break
      }
    }
  } catch (error) {
    stop()
    processor?.close()
    await assistant.close()
    throw error
  }
  stop()
  downlink?.finish()
  const realism = processor === null ? null : processor.finish()
  const closeOutcome = await assistant.close()
  // The call stopped, but perhaps not because it was over: an offline rule threw in its last step.
  ruleWatch.throwIfEndedOnRule(closeOutcome)
  return {
    assistant,
    timeline,
    listener,
    endedAtMs: clock.nowMs,
    bufferedSpeechAtEnd: relay.bufferedSpeech,
    executionTimes,
    delegationIds,
    closeOutcome,
    stoppedBy,
    realism,
  }
}
