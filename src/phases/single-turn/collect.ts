// Streaming the request and collecting the response. GPT-Live listens to a continuous stream, so after the
// request silence keeps flowing (offline, the server's clock is that stream) until the completion tracker
// says the response is complete or the response timeout passed.
//
// The audio goes out on the engine's media clock (src/phases/engine/media-clock.ts): real time, 20 ms frames
// paced on absolute deadlines, as a phone line delivers them; virtual (offline), each step sends STEP_MS of audio
// as ONE append (the protocol takes any even byte count; fewer, larger appends are most of the offline
// speed-up), then round trips prove the server processed it, every event it produced arrived and the
// delegation controllers reacted, so every decision sits at a known audio position and a run produces the same
// bytes every time.

import { setImmediate as nextTurn } from 'node:timers/promises'
import type { AssistantUnderTest } from '../../assistants/assistant-session.ts'
import { offlineRuleErrorIn } from '../../assistants/offline-rule-error.ts'
import { concatPcm16, SAMPLE_RATE_HZ, splitFrames } from '../../audio/pcm.ts'
import type { LiveSessionOutcome } from '../../live/index.ts'
import { clientEventIdOf } from '../../live/open-waits.ts'
import type { ClockMode } from '../../observability/timeline.ts'
import type { CallerAudio } from '../engine/caller.ts'
import { type ClockedStream, MediaClock, MediaClockSendError } from '../engine/media-clock.ts'
import { offlineRuleFailure } from '../engine/offline-rule-failure.ts'
import { describeError, StageError } from '../engine/stage.ts'
import { ToolCompletionTimes } from './observation.ts'
import type { ScenarioSession } from './scenario-session.ts'

/**
 * Audio per virtual-clock step: decisions (completion, timeout, delegation settlement) and the arrival time
 * of server events are quantized to it. Real-time mode decides at the same cadence.
 */
export const STEP_MS = 200
/** How long one round trip may take before the server is considered gone. */
const ROUND_TRIP_TIMEOUT_MS = 10_000
/**
 * Server events no delegation controller reacts to (output audio and captions, caller transcripts, usage,
 * the round trip's own answer). A sync round that brought only these needs no further round unless
 * delegated work is still running.
 */
const PASSIVE_EVENT_TYPES: ReadonlySet<string> = new Set([
  'session.output_audio.delta',
  'session.output_transcript.delta',
  'session.input_transcript.delta',
  'session.usage.updated',
  'session.input_audio.unmuted',
])

export interface CollectedResponse {
  terminationReason: 'response_completed' | 'response_timeout'
  callerInputEndMs: number
  /** Session clock when collection stopped. */
  endedAtMs: number
  closeOutcome: LiveSessionOutcome
  /** A delegation controller's retained error, if one failed (the row still grades what happened). */
  delegationError: string | null
  /** When each tool execution completed, on the session clock. */
  toolCompletionTimes: ToolCompletionTimes
  /** Real time: how late each frame went out against its slot (the row's pacing error); null when virtual. */
  frameLateness: number[] | null
  /** The media clock's mode (the row's provenance). */
  clockMode: ClockMode
}

export async function collectSingleTurn(
  session: ScenarioSession,
  callerAudio: CallerAudio,
  options: { signal?: AbortSignal } = {},
): Promise<CollectedResponse> {
  const { assistant, timeline, tracker } = session
  const publications = new CommentaryPublications(session)
  const continuations = new ContinuationPositions(session)
  const delegation = new DelegationWatch(assistant, publications, continuations)
  const toolCompletionTimes = new ToolCompletionTimes()
  const clock = new MediaClock({
    mode: session.clock.mode,
    replay: session.clock.replay,
    recording: session.clock.recording,
    stepMs: STEP_MS,
    roundTripTimeoutMs: ROUND_TRIP_TIMEOUT_MS,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })
  // The request in whole 20 ms frames (the last one padded), the same audio in both clock modes. The caller's
  // input ends where its speech ends when that is known (a recording's trailing silence is not the request).
  const padded = concatPcm16(splitFrames(callerAudio.samples))
  const speechEndMs = callerAudio.callerSpeech?.at(-1)?.endMs
  const inputEnd =
    speechEndMs === undefined
      ? padded.length
      : Math.min(padded.length, Math.ceil((speechEndMs * SAMPLE_RATE_HZ) / 1000))
  const request = new RequestStream(padded, inputEnd)
  let callerInputEndMs: number | null = null
  const { uplink } = session
  const faults = assistant.faults
  const caller: ClockedStream = {
    label: 'assistant',
    session: assistant.session,
    // A burst the uplink lost (fault profile) is silence by the time it reaches the session; without the
    // request's utterances (live text-to-speech) they are found by their voice onsets.
    next: (samples) => {
      const chunk = request.next(samples)
      if (uplink === null) return chunk
      const atMs = timeline.audioSentMs()
      if (session.uplinkByVoice) uplink.voice(chunk, atMs)
      return uplink.apply(chunk, atMs)
    },
    sent(chunk) {
      const at = timeline.nowMs()
      timeline.callerAudioSent(chunk)
      if (callerInputEndMs === null && request.endedInLastChunk !== null) {
        callerInputEndMs = at + (request.endedInLastChunk * 1000) / SAMPLE_RATE_HZ
        tracker.callerInputEnded(callerInputEndMs)
      }
    },
    // A round that brought only passive events while no delegated work runs needs no further round.
    settled: async (from) =>
      onlyPassiveSince(assistant.session.log.events, from) && (await delegation.idle()),
  }

  try {
    for (;;) {
      try {
        await clock.step([caller])
      } catch (error) {
        if (error instanceof MediaClockSendError) throw ended(assistant, 'while streaming caller audio')
        throw error
      }
      // Work a fault holds back (a slow tool, a stalled backend) is due on this clock; what it released runs
      // before the next frame goes out.
      await faults?.timers.advanceAndRun(timeline.nowMs())
      toolCompletionTimes.notice(assistant.tools.executionCount(), timeline.nowMs())
      await delegation.update(session)
      if (assistant.session.settled !== undefined) throw ended(assistant, 'while collecting the response')
      const decision = tracker.decide(timeline.nowMs())
      if (decision.state !== 'waiting') {
        const closeOutcome = await assistant.close()
        return {
          terminationReason: decision.state === 'completed' ? 'response_completed' : 'response_timeout',
          callerInputEndMs: callerInputEndMs ?? timeline.nowMs(),
          endedAtMs: decision.atMs,
          closeOutcome,
          delegationError: delegation.error,
          toolCompletionTimes,
          frameLateness: clock.frameLateness(),
          clockMode: clock.mode,
        }
      }
    }
  } catch (error) {
    if (error instanceof StageError) throw error
    throw collectionFailure(session.scenarioId, error, assistant.session.settled)
  } finally {
    publications.stop()
    continuations.stop()
  }
}

/**
 * Collecting failed with `error`. A session that failed is the reason, and its failure the cause (the engine's
 * stageFailureOf reads causes: an offline rule's error event, say), unless `error` is an offline rule that threw
 * (the client backend's, rethrown by DelegationWatch.idle): the author's bug explains whatever else failed with it,
 * so it stays the cause and the scenario ends at offline_rule.
 */
export function collectionFailure(
  scenarioId: string,
  error: unknown,
  settled: LiveSessionOutcome | undefined,
): StageError {
  const reason = offlineRuleFailure(error) === null ? (failedWith(settled) ?? error) : error
  return new StageError(
    'response_collection',
    `Collecting the response of ${scenarioId} failed: ${describeError(reason)}`,
    { cause: reason },
  )
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
  const failed = failedWith(outcome)
  return new StageError(
    'response_collection',
    `The session ended ${when}: ${why}.`,
    failed === undefined ? undefined : { cause: failed },
  )
}

/**
 * The request, then silence, in chunks of whatever size the clock asks for. `endedInLastChunk` is, for the chunk
 * that reached the end of the caller's input (`inputEnd` samples in), how many of its samples came before that
 * end (else null).
 */
class RequestStream {
  readonly #request: Int16Array
  readonly #inputEnd: number
  #position = 0
  #silence: Int16Array | null = null
  endedInLastChunk: number | null = null

  constructor(request: Int16Array, inputEnd: number) {
    this.#request = request
    this.#inputEnd = inputEnd
  }

  next(samples: number): Int16Array {
    const start = this.#position
    this.#position += samples
    const untilEnd = this.#inputEnd - start
    this.endedInLastChunk = untilEnd > 0 && untilEnd <= samples ? untilEnd : null
    if (start >= this.#request.length) {
      // Past the request every chunk is the same silence; one buffer serves them all (it is never mutated).
      if (this.#silence?.length !== samples) this.#silence = new Int16Array(samples)
      return this.#silence
    }
    const chunk = new Int16Array(samples)
    chunk.set(this.#request.subarray(start, start + samples))
    return chunk
  }
}

function onlyPassiveSince(events: readonly { event: { type: string } }[], from: number): boolean {
  for (let index = from; index < events.length; index++) {
    if (!PASSIVE_EVENT_TYPES.has(events[index]?.event.type ?? '')) return false
  }
  return true
}

/**
 * The reason given when an idleness probe stops waiting. One shared value: a default abort reason is a fresh
 * DOMException with a captured stack, and probes run on most steps.
 */
const PROBE_OVER = Object.freeze({ probe: 'delegated work is still running' })

/**
 * Client delegation publishes its result as `session.commentary.append` carrying the delegation id, and the
 * caller can hear it only once the voice model took it: its `session.commentary.appended` (or the error
 * refusing it). That arrival settles the delegation, on the spot and before the events after it (the spoken
 * answer) reach the tracker. Settling when the commentary was merely sent would date the result to the very
 * step the delegation began offline, and the acknowledgement the service speaks at once ("One moment.")
 * would count as speech after the result: as the answer, and as post-tool text.
 */
export class CommentaryPublications {
  /** Commentary event ids sent per delegation that the server has not answered yet. */
  readonly #unanswered = new Map<string, Set<string>>()
  readonly #delegationOf = new Map<string, string>()
  readonly #stops: Array<() => void>

  constructor(session: ScenarioSession) {
    const live = session.assistant.session
    this.#stops = [
      live.onSent(({ event }) => {
        if (event.type !== 'session.commentary.append') return
        if (typeof event.delegation_id !== 'string' || typeof event.event_id !== 'string') return
        this.#delegationOf.set(event.event_id, event.delegation_id)
        const ids = this.#unanswered.get(event.delegation_id) ?? new Set<string>()
        ids.add(event.event_id)
        this.#unanswered.set(event.delegation_id, ids)
      }),
      live.subscribe(({ event, receivedAtMs }) => {
        if (event.type !== 'session.commentary.appended' && event.type !== 'error') return
        const eventId = clientEventIdOf(event)
        const delegationId = eventId === undefined ? undefined : this.#delegationOf.get(eventId)
        if (eventId === undefined || delegationId === undefined) return
        const ids = this.#unanswered.get(delegationId)
        if (!ids?.delete(eventId) || ids.size > 0) return
        const span = session.timeline.delegations.find((candidate) => candidate.id === delegationId)
        if (span === undefined || span.settledMs !== null) return
        // Dated on the service's clock, where the spoken answer's transcript is: the acknowledgement's end_ms
        // (when the commentary joined the timeline). Its arrival, on our wall clock, is later than that in real
        // time, and would leave an answer spoken at once out of the post-tool text.
        const atMs =
          event.type === 'session.commentary.appended' ? Math.min(event.end_ms, receivedAtMs) : receivedAtMs
        session.timeline.delegationSettled(delegationId, atMs)
        session.tracker.delegationSettled(delegationId, atMs)
      }),
    ]
  }

  /** True while commentary of this delegation waits for the voice model's answer (it settles on arrival). */
  awaiting(delegationId: string): boolean {
    return (this.#unanswered.get(delegationId)?.size ?? 0) > 0
  }

  stop(): void {
    for (const stop of this.#stops) stop()
  }
}

/**
 * Where each `response.create` (a Responses delegation's result, published) went out on the service's clock:
 * the caller audio sent before it, by the send time the controller records for its publication.
 */
export class ContinuationPositions {
  readonly #audioMsBySentAt = new Map<number, number>()
  readonly stop: () => void

  constructor(session: ScenarioSession) {
    this.stop = session.assistant.session.onSent(({ event, sentAtMs }) => {
      if (event.type === 'response.create') {
        this.#audioMsBySentAt.set(sentAtMs, session.timeline.audioSentMs())
      }
    })
  }

  /** The service-clock position of the last publication of `delegationId`, when it was one we saw go out. */
  publishedAt(assistant: AssistantUnderTest, delegationId: string): number | null {
    const observed = assistant.delegations()
    if (observed.architecture !== 'responses') return null
    const published = observed.records.publications.filter(
      (publication) => publication.delegationId === delegationId && publication.outcome === 'published',
    )
    const last = published.at(-1)
    return last === undefined ? null : (this.#audioMsBySentAt.get(last.atMs) ?? null)
  }
}

/**
 * Follows the controller's pending work: when it drains, every open delegation's result was published (client
 * delegation commentary still on its way to the voice model settles on arrival instead, above). A settlement is
 * dated on the service's clock, where transcripts are: when its result went out (a Responses publication), else
 * the audio sent by now. Dating it when this watch noticed, on the wall clock, would put it after an answer the
 * voice model began at once, and leave that answer out of the post-tool text.
 */
class DelegationWatch {
  readonly #assistant: AssistantUnderTest
  readonly #publications: CommentaryPublications
  readonly #continuations: ContinuationPositions
  error: string | null = null

  constructor(
    assistant: AssistantUnderTest,
    publications: CommentaryPublications,
    continuations: ContinuationPositions,
  ) {
    this.#assistant = assistant
    this.#publications = publications
    this.#continuations = continuations
  }

  async update(session: ScenarioSession): Promise<void> {
    const open = session.timeline.delegations.filter((span) => span.settledMs === null)
    if (open.length === 0) return
    if (!(await this.idle())) return
    const sentNow = session.timeline.audioSentMs()
    const finished = (id: string) =>
      this.#assistant.delegationFinished(id) && !this.#publications.awaiting(id)
    for (const span of open.filter((candidate) => finished(candidate.id))) {
      const atMs = Math.min(sentNow, this.#continuations.publishedAt(this.#assistant, span.id) ?? sentNow)
      session.timeline.delegationSettled(span.id, atMs)
      session.tracker.delegationSettled(span.id, atMs)
    }
  }

  /** True when nothing is pending (or the controller failed: the work is over either way). */
  async idle(): Promise<boolean> {
    const cancel = new AbortController()
    const drained = this.#assistant.waitForDelegatedWork({ signal: cancel.signal }).then(
      () => true,
      (error: unknown) => {
        if (cancel.signal.aborted) return false
        // The client backend's offline rule threw: the author's bug ends the scenario, as the offline server's
        // close does under Responses (the engine reports it at offline_rule).
        if (offlineRuleErrorIn(error) !== null) throw error
        this.error ??= describeError(error)
        return true
      },
    )
    const stillBusy = nextTurn().then(() => false)
    const idle = await Promise.race([drained, stillBusy])
    cancel.abort(PROBE_OVER)
    await drained
    return idle
  }
}

/** The error a failed session outcome carries, or undefined. */
function failedWith(outcome: LiveSessionOutcome | undefined): unknown {
  return outcome?.type === 'failed' ? outcome.error : undefined
}
