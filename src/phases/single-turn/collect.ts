// Streaming the request and collecting the response. The request is sent in 20 ms frames, then silence keeps
// flowing (GPT-Live listens to a continuous stream and, offline, its clock is that stream) until the
// completion tracker says the response is complete or the response timeout passed.
//
// Real time: frames are paced on absolute deadlines. Virtual clock (offline): frames go out in steps of
// STEP_MS; after each step a round trip proves the server processed everything and its events arrived, and
// the delegation controllers get to react, so every decision sits at a known audio position.

import { setImmediate as nextTurn } from 'node:timers/promises'
import type { AssistantUnderTest } from '../../assistants/assistant-session.ts'
import { FramePacer } from '../../audio/pacing.ts'
import { silence, splitFrames } from '../../audio/pcm.ts'
import type { LiveSessionOutcome } from '../../live/index.ts'
import { ROUND_TRIP_COMMAND, roundTrip } from '../../live/round-trip.ts'
import type { ScenarioSession } from './scenario-session.ts'
import { type CallerAudio, describeError, type SingleTurnEnv, StageError } from './types.ts'

/** Audio per virtual-clock step: decisions are taken every 100 ms of audio. */
export const STEP_MS = 100
const FRAMES_PER_STEP = STEP_MS / 20
/** How long one round trip may take before the server is considered gone. */
const ROUND_TRIP_TIMEOUT_MS = 10_000
/** Bound on sync rounds per step (each one lets controllers react to what the previous one delivered). */
const MAX_SYNC_ROUNDS = 20

export interface CollectedResponse {
  terminationReason: 'response_completed' | 'response_timeout'
  callerInputEndMs: number
  /** Session clock when collection stopped. */
  endedAtMs: number
  closeOutcome: LiveSessionOutcome
  /** A delegation controller's retained error, if one failed (the row still grades what happened). */
  delegationError: string | null
}

export async function collectSingleTurn(
  session: ScenarioSession,
  callerAudio: CallerAudio,
  env: Pick<SingleTurnEnv, 'settings'>,
  options: { signal?: AbortSignal } = {},
): Promise<CollectedResponse> {
  const { assistant, timeline, tracker, trace } = session
  const virtual = timeline.mode === 'virtual'
  const request = splitFrames(callerAudio.samples)
  const quietFrame = silence(20)
  const pacer = new FramePacer({ realTime: !virtual, ...(options.signal ? { signal: options.signal } : {}) })
  const delegation = new DelegationWatch(assistant)
  let callerInputEndMs: number | null = null
  let sent = 0

  const sendFrame = (frame: Int16Array) => {
    const at = timeline.nowMs()
    if (!assistant.sendAudio(frame)) throw ended(assistant, 'while streaming caller audio')
    timeline.callerAudioSent(frame)
    trace.add('client', 'sent', at, { type: 'session.input_audio.append', audio_bytes: frame.byteLength })
    sent += 1
    if (sent === request.length) {
      callerInputEndMs = timeline.nowMs()
      tracker.callerInputEnded(callerInputEndMs)
    }
  }

  try {
    for (;;) {
      for (let k = 0; k < FRAMES_PER_STEP; k++) {
        const slot = await pacer.nextSlot()
        sendFrame(request[sent] ?? quietFrame)
        pacer.markSent(slot)
      }
      if (virtual) await synchronize(session)
      await delegation.update(session)
      if (assistant.session.settled !== undefined) throw ended(assistant, 'while collecting the response')
      const decision = tracker.decide(timeline.nowMs())
      if (decision.state !== 'waiting') {
        const closeOutcome = await closeSession(session)
        return {
          terminationReason: decision.state === 'completed' ? 'response_completed' : 'response_timeout',
          callerInputEndMs: callerInputEndMs ?? timeline.nowMs(),
          endedAtMs: decision.atMs,
          closeOutcome,
          delegationError: delegation.error,
        }
      }
    }
  } catch (error) {
    if (error instanceof StageError) throw error
    const outcome = assistant.session.settled
    const reason = outcome?.type === 'failed' ? outcome.error.message : describeError(error)
    throw new StageError(
      'response_collection',
      `Collecting the response of ${session.scenarioId} failed: ${reason}`,
      {
        cause: error,
      },
    )
  }
}

function ended(assistant: AssistantUnderTest, when: string): StageError {
  const outcome = assistant.session.settled
  const why =
    outcome === undefined
      ? 'the session is closing'
      : outcome.type === 'failed'
        ? outcome.error.message
        : outcome.type === 'closed'
          ? `the server closed the session (${outcome.reason})`
          : `the session was shut down locally (${outcome.cause})`
  return new StageError('response_collection', `The session ended ${when}: ${why}.`)
}

/**
 * Round trips until one brings back nothing but its own answer: the server has processed every frame, and the
 * controllers have had the chance to react to everything that arrived (their commands were answered too).
 */
async function synchronize(session: ScenarioSession): Promise<void> {
  const live = session.assistant.session
  for (let round = 0; round < MAX_SYNC_ROUNDS; round++) {
    const before = live.log.events.length
    const sentAt = session.timeline.nowMs()
    session.trace.add('client', 'sent', sentAt, { type: ROUND_TRIP_COMMAND })
    if (!(await roundTrip(live, ROUND_TRIP_TIMEOUT_MS))) return
    // Tool executions and controller reactions run on later ticks; let them happen before the next check.
    await nextTurn()
    await nextTurn()
    if (live.log.events.length === before + 1) return
  }
}

/** Follows the controller's pending work: when it drains, every open delegation's result was published. */
class DelegationWatch {
  readonly #assistant: AssistantUnderTest
  error: string | null = null

  constructor(assistant: AssistantUnderTest) {
    this.#assistant = assistant
  }

  async update(session: ScenarioSession): Promise<void> {
    const open = session.timeline.delegations.filter((span) => span.settledMs === null)
    if (open.length === 0) return
    if (!(await this.#idle())) return
    const now = session.timeline.nowMs()
    for (const span of open.filter((candidate) => this.#backendFinished(candidate.id))) {
      session.timeline.delegationSettled(span.id, now)
      session.tracker.delegationSettled(span.id, now)
    }
  }

  /**
   * Responses delegation tracks work only from the first function call, so an idle controller alone does not
   * mean the backend is done: its response must have ended, and any calls it made must have been published.
   * Client delegation is pending from acceptance through publication, so idle is enough there.
   */
  #backendFinished(delegationId: string): boolean {
    const observed = this.#assistant.delegations()
    if (observed.architecture !== 'responses') return true
    const records = observed.records
    const responded = records.backendUsage.some((usage) => usage.delegationId === delegationId)
    const ranTools = records.requestedCalls.some(
      (call) => call.delegationId === delegationId && call.executed,
    )
    const published = records.publications.some((publication) => publication.delegationId === delegationId)
    return responded && (!ranTools || published)
  }

  /** True when nothing is pending (or the controller failed: the work is over either way). */
  async #idle(): Promise<boolean> {
    const cancel = new AbortController()
    const drained = this.#assistant.waitForDelegatedWork({ signal: cancel.signal }).then(
      () => true,
      (error: unknown) => {
        if (cancel.signal.aborted) return false
        this.error ??= describeError(error)
        return true
      },
    )
    const stillBusy = nextTurn().then(() => false)
    const idle = await Promise.race([drained, stillBusy])
    cancel.abort()
    await drained
    return idle
  }
}

async function closeSession(session: ScenarioSession): Promise<LiveSessionOutcome> {
  session.trace.add('client', 'sent', session.timeline.nowMs(), { type: 'session.close' })
  return session.assistant.close()
}
