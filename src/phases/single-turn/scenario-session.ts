// Opening the assistant under test for one scenario and wiring everything it says into the observation side:
// the session timeline (the one clock), the sanitized trace and the completion tracker. The trace hears both
// directions from the session itself: every frame sent (start, caller audio, the controllers' commands, round
// trips, close) and every event received, in the order they happened. Offline, the session is
// registered with the offline server under a fresh token carrying only what the caller says; live, it connects
// to the real endpoint with the API key.

import { ClientAssistantError } from '../../assistants/architectures/remote/errors.ts'
import {
  type AssistantUnderTest,
  checkScenarioApplication,
  openAssistantUnderTest,
  registerOfflineAssistant,
} from '../../assistants/assistant-session.ts'
import { assistantModelsFromSettings } from '../../assistants/frontend/index.ts'
import { pcm16FromBase64 } from '../../audio/pcm.ts'
import { recordingSync, replayClock } from '../../cassettes/scope.ts'
import { credentialValues } from '../../config/redact.ts'
import { requestUtterances, UplinkLoss } from '../../faults/transport.ts'
import type { ReceivedLiveEvent, SentLiveEvent } from '../../live/index.ts'
import { LiveSessionError } from '../../live/index.ts'
import { type ClockMode, SessionTimeline } from '../../observability/timeline.ts'
import { SessionTrace } from '../../observability/trace.ts'
import { assistantVisibleInput, type Scenario } from '../../scenarios/index.ts'
import type { CallerAudio } from '../engine/caller.ts'
import type { ScenarioEnv } from '../engine/execution.ts'
import type { RecordingSync, ReplaySync } from '../engine/media-clock.ts'
import type { DriveOptions } from '../engine/phase-module.ts'
import { describeError, StageError } from '../engine/stage.ts'
import { ResponseCompletionTracker } from './response-completion.ts'

/** A connected assistant under test plus what observes it. */
export interface ScenarioSession {
  scenarioId: string
  assistant: AssistantUnderTest
  timeline: SessionTimeline
  trace: SessionTrace
  tracker: ResponseCompletionTracker
  /** The media clock the request goes out on (collect.ts). */
  clock: SessionClock
  /** Ids of every `session.delegation.created`, repeats included. */
  delegationIds: string[]
  /** Problems observed while listening (an undecodable audio delta); reported, never thrown from the listener. */
  listenerProblems: string[]
  /** The scenario's uplink loss under a fault profile (its bursts silenced in the request); null when clean. */
  uplink: UplinkLoss | null
  /** Whether the request's utterances are unknown (live text-to-speech), so the uplink finds them by voice onset. */
  uplinkByVoice: boolean
  /** Stops listening (idempotent). */
  detach(): void
}

export interface SessionClock {
  mode: ClockMode
  /** A replay's synchronisation with its replay server (the media clock then goes frame by frame); else null. */
  replay: ReplaySync | null
  /** While a cassette is recorded, its synchronisation before each frame (a real-time clock reads it); else null. */
  recording: RecordingSync | null
}

/**
 * The media clock: virtual offline (unless audio.real_time paces it) and in a replay, which plays a real-time
 * recording on the virtual clock with the replay server (src/cassettes); real time live.
 */
function sessionClockOf(env: Pick<ScenarioEnv, 'settings'>): SessionClock {
  const replay = replayClock()
  if (replay !== null) return { mode: 'virtual', replay, recording: null }
  const virtual = env.settings.execution.mode === 'offline' && !env.settings.audio.real_time
  return { mode: virtual ? 'virtual' : 'real_time', replay: null, recording: recordingSync() }
}

export async function openScenarioSession(
  scenario: Scenario,
  env: ScenarioEnv,
  callerAudio: CallerAudio,
  options: DriveOptions,
): Promise<ScenarioSession> {
  const settings = env.settings
  const visibleInput = assistantVisibleInput(scenario)
  try {
    checkScenarioApplication(options.application, scenario.id, env.architecture.name)
  } catch (error) {
    throw new StageError('input_setup', describeError(error), { cause: error })
  }
  // The session's one clock counts the caller audio sent, whatever paces it: that is the service's clock (it dates
  // its transcripts by the audio it received), so what arrives, what we decide and when a tool completed are all
  // on it. The wall clock runs ahead of it whenever real-time frames go out late, and dating tool completions by
  // it against transcripts dated by the service failed grounded checks under load (the RUN relay counts the same
  // way for the same reason). A replay then sees the clock readings its recording saw.
  const timeline = new SessionTimeline({ mode: 'virtual' })
  const clock = sessionClockOf(env)
  // Under a fault profile the request's uplink may lose a burst: the same windows silence the audio sent and,
  // offline, leave the lost words out of what the server hears.
  const faults = options.application.faults
  const uplink = faults === null ? null : new UplinkLoss(faults)
  const utterances = requestUtterances(callerAudio)
  const heard = uplink === null ? utterances : uplink.hear(utterances)
  // A fault's waits follow the media clock in every mode, as in RUN: live, that clock follows real time, and a wait
  // that ended on the wall clock let the held output out between other frames than its replay (on the virtual
  // clock) does, so the replay of every faulted recording diverged at that output.
  if (faults !== null) faults.timers.useVirtualClock()
  let connection: { apiKey: string; baseURL?: string; allowInsecureLoopback?: boolean }
  if (settings.execution.mode === 'offline') {
    if (env.offlineServer === null) {
      throw new StageError('input_setup', `Scenario ${scenario.id}: offline mode needs env.offlineServer.`)
    }
    const token = registerOfflineAssistant(env.offlineServer, visibleInput, env.architecture, heard, {
      sessionFaults: faults,
    })
    connection = { apiKey: token, baseURL: env.offlineServer.baseURL, allowInsecureLoopback: true }
  } else {
    const apiKey = settings.credentials.openai_api_key
    if (apiKey === null) {
      throw new StageError(
        'connection',
        'Live mode needs OPENAI_API_KEY; set it, or run offline with LIVE_EVALS_MODE=offline.',
      )
    }
    connection = {
      apiKey,
      ...(settings.connection.live_endpoint === null ? {} : { baseURL: settings.connection.live_endpoint }),
      allowInsecureLoopback: settings.connection.live_allow_insecure_loopback,
    }
  }
  const trace = new SessionTrace({
    redactFields: settings.redact_fields,
    // Every credential of the run plus the key this session connects with (live key or offline token).
    secretValues: [connection.apiKey, ...credentialValues(settings)],
  })
  let assistant: AssistantUnderTest
  try {
    assistant = await openAssistantUnderTest({
      visibleInput,
      architecture: env.architecture,
      models: assistantModelsFromSettings(settings.models),
      connection,
      clock: () => timeline.nowMs(),
      application: options.application,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
  } catch (error) {
    // Reaching the service or a remote client assistant is the connection; anything after is the session start.
    const connecting =
      (error instanceof LiveSessionError && (error.stage === 'connect' || error.stage === 'configuration')) ||
      error instanceof ClientAssistantError
    const stage = connecting ? 'connection' : 'session_start'
    throw new StageError(
      stage,
      `Scenario ${scenario.id}: the assistant session did not start: ${describeError(error)}`,
      {
        cause: error,
      },
    )
  }
  // The reference trace starts with the session start, its configuration under `event.session`. The handshake
  // happened inside openAssistantUnderTest, before anyone could subscribe, so its frame is read back here.
  const startSent = assistant.session.startSent
  if (startSent !== undefined) traceSent(trace, startSent)

  const tracker = new ResponseCompletionTracker({
    responseTimeoutMs: settings.execution.response_timeout_seconds * 1000,
  })
  const scenarioSession: ScenarioSession = {
    scenarioId: scenario.id,
    assistant,
    timeline,
    trace,
    tracker,
    clock,
    delegationIds: [],
    listenerProblems: [],
    uplink,
    uplinkByVoice: uplink !== null && utterances.length === 0,
    detach: () => {},
  }
  // Events already logged (session.started) first, then every later one as it arrives, in both directions.
  for (const received of assistant.session.log.events) observeEvent(scenarioSession, received)
  const stopReceiving = assistant.session.subscribe((received) => observeEvent(scenarioSession, received))
  const stopSending = assistant.session.onSent((sent) => traceSent(trace, sent))
  scenarioSession.detach = () => {
    stopReceiving()
    stopSending()
  }
  return scenarioSession
}

/** One frame we sent, as the trace keeps it (the trace drops raw audio and redacts secrets itself). */
function traceSent(trace: SessionTrace, sent: SentLiveEvent): void {
  trace.add('client', 'sent', sent.sentAtMs, sent.event)
}

/** Puts one received event on the timeline, the trace and the completion tracker. */
function observeEvent(session: ScenarioSession, received: ReceivedLiveEvent): void {
  const { timeline, trace, tracker } = session
  const at = received.receivedAtMs
  const event = received.event
  trace.add('server', 'received', at, event)
  switch (event.type) {
    case 'session.output_audio.delta': {
      let samples: Int16Array
      try {
        samples = pcm16FromBase64(event.delta)
      } catch (error) {
        session.listenerProblems.push(`output audio delta at ${at} ms: ${describeError(error)}`)
        return
      }
      if (samples.length === 0) return
      const placed = timeline.assistantAudioReceived(at, samples)
      tracker.assistantAudio(placed.startMs, placed.endMs, placed.voiced)
      return
    }
    case 'session.output_transcript.delta':
      timeline.transcript({
        role: 'assistant',
        text: event.delta,
        startMs: event.start_ms,
        endMs: event.end_ms,
        receivedAtMs: at,
      })
      tracker.assistantCaption(at)
      return
    case 'session.input_transcript.delta':
      timeline.transcript({
        role: 'user',
        text: event.delta,
        startMs: event.start_ms,
        endMs: event.end_ms,
        receivedAtMs: at,
      })
      return
    case 'session.delegation.created':
      session.delegationIds.push(event.delegation.id)
      timeline.delegationCreated(event.delegation.id, at)
      tracker.delegationStarted(event.delegation.id)
      return
    case 'session.usage.updated':
    case 'session.closed':
      timeline.usageReported(event.usage.seconds, at)
      return
    default:
      return
  }
}
