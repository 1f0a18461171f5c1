// The media clock: one timeline for every GPT-Live session of a conversation. CRAWL and WALK drive one session
// (the assistant under test); RUN drives two (the simulated caller and the assistant) and relays each one's
// voice to the other. Each step, every stream sends exactly one step of audio, so the sessions' audio clocks
// stay in lockstep.
// - virtual (offline): each stream sends its step as one append, then every session makes round trips until
//   the events its audio caused have all arrived, so every decision sits at a known audio position and a run
//   gives the same bytes every time; no waiting.
// - real time (live): 20 ms frames on absolute deadlines (audio/pacing.ts), every stream's frame in the same slot.
import { setImmediate as nextTurn } from 'node:timers/promises'
import { FramePacer } from '../../audio/pacing.ts'
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import type { LiveSession } from '../../live/index.ts'
import { roundTrip } from '../../live/round-trip.ts'
import type { ClockMode } from '../../observability/timeline.ts'
import { StageError } from './stage.ts'

/** One session's input on the clock: what it hears, step by step. */
export interface ClockedStream {
  /** Names the stream in errors ("caller", "assistant"). */
  readonly label: string
  readonly session: Pick<LiveSession, 'appendAudio' | 'send' | 'reply' | 'log'>
  /**
   * The next `samples` of audio this session hears (a prepared request, the other party's relayed voice, or
   * silence). Called once per step (virtual) or frame (real time), in stream order, before anything is sent.
   */
  next(samples: number): Int16Array
  /** Called right after a chunk was handed to the session (the caller's timeline records it here). */
  sent?(chunk: Int16Array): void
  /**
   * Virtual clock: after a round trip that brought more than its own answer, whether the session is settled
   * anyway (for example: only passive events arrived and no delegated work runs), which spares another round.
   * `eventsFrom` is the log position the round started at.
   */
  settled?(eventsFrom: number): Promise<boolean>
}

export interface MediaClockOptions {
  mode: ClockMode
  /** Audio per step; decisions and virtual event arrival are quantized to it. */
  stepMs?: number
  /** Real time: the transport frame. */
  frameMs?: number
  signal?: AbortSignal
  /** How long one round trip may take before the session is considered gone (virtual). */
  roundTripTimeoutMs?: number
}

/** Bound on round trips per session and step (each lets reactions to the previous one arrive). */
const MAX_SYNC_ROUNDS = 20

export class MediaClock {
  readonly mode: ClockMode
  readonly stepMs: number
  readonly #frameMs: number
  readonly #roundTripTimeoutMs: number
  readonly #pacer: FramePacer | null
  #steps = 0

  constructor(options: MediaClockOptions) {
    this.mode = options.mode
    this.stepMs = options.stepMs ?? 200
    this.#frameMs = options.frameMs ?? 20
    this.#roundTripTimeoutMs = options.roundTripTimeoutMs ?? 10_000
    if (this.stepMs % this.#frameMs !== 0) {
      throw new RangeError(
        `media clock step (${this.stepMs} ms) must be a whole number of frames (${this.#frameMs} ms)`,
      )
    }
    this.#pacer =
      this.mode === 'real_time'
        ? new FramePacer({
            realTime: true,
            frameMs: this.#frameMs,
            ...(options.signal ? { signal: options.signal } : {}),
          })
        : null
  }

  /** Audio time every stream has sent so far. */
  get nowMs(): number {
    return this.#steps * this.stepMs
  }

  /** Sends one step of audio to every stream's session (and, virtual, waits until each has answered it). */
  async step(streams: readonly ClockedStream[]): Promise<void> {
    if (this.#pacer === null) {
      const samples = (SAMPLE_RATE_HZ * this.stepMs) / 1000
      const chunks = streams.map((stream) => stream.next(samples))
      for (const [index, stream] of streams.entries()) send(stream, chunks[index] as Int16Array)
      for (const stream of streams) await this.#synchronize(stream)
    } else {
      const samples = (SAMPLE_RATE_HZ * this.#frameMs) / 1000
      for (let frame = 0; frame < this.stepMs / this.#frameMs; frame++) {
        const slot = await this.#pacer.nextSlot()
        const chunks = streams.map((stream) => stream.next(samples))
        for (const [index, stream] of streams.entries()) send(stream, chunks[index] as Int16Array)
        this.#pacer.markSent(slot)
      }
    }
    this.#steps += 1
  }

  /** Round trips until a round brings back nothing but its own answer: the session processed the step. */
  async #synchronize(stream: ClockedStream): Promise<void> {
    const { session } = stream
    for (let round = 0; round < MAX_SYNC_ROUNDS; round++) {
      const before = session.log.events.length
      if (!(await roundTrip(session, this.#roundTripTimeoutMs))) return
      // Reactions (tool executions, controllers answering) run on later ticks; let them happen first.
      await nextTurn()
      await nextTurn()
      if (session.log.events.length - before === 1) return
      if (stream.settled !== undefined && (await stream.settled(before))) return
    }
  }
}

function send(stream: ClockedStream, chunk: Int16Array): void {
  if (!stream.session.appendAudio(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
    throw new MediaClockSendError(stream.label)
  }
  stream.sent?.(chunk)
}

/** A stream's session would not take audio any more (it is closing or over). */
export class MediaClockSendError extends StageError {
  readonly label: string

  constructor(label: string) {
    super('response_collection', `The ${label} session ended while the media clock was sending audio.`)
    this.name = 'MediaClockSendError'
    this.label = label
  }
}

/** A relay: what one session says, heard by another one step later (audio is appended as it arrives). */
export class AudioRelay {
  #buffered: Int16Array[] = []
  #length = 0

  /** Adds received audio to the relay. */
  push(samples: Int16Array): void {
    if (samples.length === 0) return
    this.#buffered.push(samples)
    this.#length += samples.length
  }

  /** The next `samples` of relayed audio, padded with silence when less has arrived. */
  take(samples: number): Int16Array {
    const chunk = new Int16Array(samples)
    let filled = 0
    while (filled < samples && this.#buffered.length > 0) {
      const head = this.#buffered[0] as Int16Array
      const count = Math.min(head.length, samples - filled)
      chunk.set(head.subarray(0, count), filled)
      filled += count
      if (count === head.length) this.#buffered.shift()
      else this.#buffered[0] = head.subarray(count)
    }
    this.#length -= filled
    return chunk
  }

  get bufferedSamples(): number {
    return this.#length
  }
}
