// Opening the two participants of a live call and wiring what they say into the call's record: the assistant
// under test (openAssistantUnderTest, this scenario's application) and the simulated caller (a LiveSession with
// the brief). Each side's voice goes into the relay for the other to hear; the assistant's output captions and
// the caller's own output captions (what it actually said, not what the assistant made of it) go into the
// session timeline; the caller's delegations and backend responses go to the validity watch. A session that
// does not start ends the call as `assistant_connection` or `caller_connection`, and nothing is left open.
import type { AssistantArchitecture, ScenarioApplication } from '../../../assistants/architectures/index.ts'
import {
  type AssistantConnection,
  type AssistantUnderTest,
  openAssistantUnderTest,
} from '../../../assistants/assistant-session.ts'
import type { AssistantModels } from '../../../assistants/frontend/index.ts'
import { type LiveEndpointSettingsInput, type LiveSession, LiveSessionError } from '../../../live/index.ts'
import type { SessionTimeline } from '../../../observability/timeline.ts'
import type { AssistantVisibleInput } from '../../../scenarios/visible.ts'
import { describeError } from '../../engine/stage.ts'
import { outputAudioOf, recordAssistantEvents } from '../assistant-events.ts'
import type { CallerBrief } from '../brief.ts'
import {
  type CallerBackend,
  callerSessionConfig,
  callerVoiceFor,
  createCallerSession,
} from './caller-session.ts'
import { LiveRunError } from './errors.ts'
import type { ConversationRelay } from './relay.ts'
import type { CallerBackendWatch } from './validity.ts'

export interface ParticipantOptions {
  visibleInput: AssistantVisibleInput
  architecture: AssistantArchitecture
  /** This scenario's application (the `toolState` fixture); the assistant's tools run against it. */
  application: ScenarioApplication
  models: AssistantModels
  /**
   * The GPT-Live model the simulated caller runs on (simulation.simulator_model), never the model under test: across
   * a model matrix every model then talks to the same caller.
   */
  callerModel: string
  brief: CallerBrief
  callerBackend: CallerBackend | null
  connections: { assistant: AssistantConnection; caller: LiveEndpointSettingsInput }
  signal?: AbortSignal | undefined
}

export interface Participants {
  assistant: AssistantUnderTest
  caller: LiveSession
  callerVoice: string
  /** The assistant's `session.delegation.created` ids, in arrival order (repeats kept). */
  delegationIds: string[]
  /** Stops feeding the record (the call is over; closing events still reach the sessions' logs). */
  stopListening(): void
}

/** A start failure as the row's stage: no connection at all, or a session that connected and did not start. */
function startFailure(side: 'assistant' | 'caller', error: unknown): LiveRunError {
  const connected = !(error instanceof LiveSessionError) || error.stage !== 'connect'
  return new LiveRunError(
    connected ? 'session_start' : 'connection',
    side === 'assistant' ? 'assistant_connection' : 'caller_connection',
    `the ${side} session did not start: ${describeError(error)}`,
    { cause: error },
  )
}

export async function openParticipants(
  options: ParticipantOptions,
  record: { timeline: SessionTimeline; relay: ConversationRelay; watch: CallerBackendWatch },
): Promise<Participants> {
  const { timeline, relay, watch } = record
  const clock = () => timeline.nowMs()
  let assistant: AssistantUnderTest
  try {
    assistant = await openAssistantUnderTest({
      visibleInput: options.visibleInput,
      architecture: options.architecture,
      models: options.models,
      connection: options.connections.assistant,
      clock,
      application: options.application,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      // Its voice goes to the relay as it arrives; the log keeps each delta's size for the trace, not the base64
      // of the whole call (which, at 32 calls, kept full collections busy).
      keepOutputAudio: false,
    })
  } catch (error) {
    throw startFailure('assistant', error)
  }
  const { delegationIds, stop: stopAssistant } = recordAssistantEvents(assistant.session, timeline, {
    onAudio: (samples) => relay.fromAssistant.push(samples),
    // The caller's lines come from its own output captions (what it said), not from the assistant's hearing.
    inputCaptions: false,
  })

  const callerVoice = callerVoiceFor(options.brief.voice, options.models.voice)
  let caller: LiveSession
  try {
    caller = createCallerSession(options.connections.caller, clock, options.signal)
  } catch (error) {
    stopAssistant()
    await assistant.close()
    throw startFailure('caller', error)
  }
  const stopCaller = caller.subscribe(({ event, receivedAtMs }) => {
    watch.observe(event)
    const samples = outputAudioOf(event)
    if (samples !== null) relay.fromCaller.push(samples)
    else if (event.type === 'session.output_transcript.delta') {
      timeline.transcript({
        role: 'user',
        text: event.delta,
        startMs: event.start_ms,
        endMs: event.end_ms,
        receivedAtMs,
      })
    }
  })
  try {
    await caller.start(
      callerSessionConfig(options.brief, {
        liveModel: options.callerModel,
        assistantVoice: options.models.voice,
        backend: options.callerBackend,
      }),
    )
  } catch (error) {
    stopCaller()
    stopAssistant()
    await Promise.all([assistant.close(), caller.dispose()])
    throw startFailure('caller', error)
  }
  return {
    assistant,
    caller,
    callerVoice,
    delegationIds,
    stopListening() {
      stopAssistant()
      stopCaller()
    },
  }
}
