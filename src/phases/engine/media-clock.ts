// The media clock: one timeline for every GPT-Live session of a conversation. CRAWL and WALK drive one session
// (the assistant under test); RUN drives two (the simulated caller and the assistant) and relays each one's
// voice to the other. Each step, every stream sends exactly one step of audio, so the sessions' audio clocks
// stay in lockstep.
// - virtual (offline): each stream sends its step as one append, then every session makes round trips until
//   the events its audio caused have all arrived, so every decision sits at a known audio position and a run
//   gives the same bytes every time; no waiting.
// - real time (live): 20 ms frames on absolute deadlines (audio/pacing.ts), every stream's frame in the same slot.
// - virtual, replaying a real-time recording (src/cassettes): each step goes out as the real-time clock sends it,
//   one append per 20 ms frame, and before each frame every stream makes one round trip. The replay server answers
//   it once it has played what the recording received before that frame (and heard what the recording sent before
//   it), and `synchronized` waits for the HTTP answers it released, so each frame is computed from what the
//   recording had heard by then. No waiting on the wall clock.
// - real time, recording a cassette: before each frame, the HTTP requests that ended since the previous one get the
//   turns the replay gives them (RecordingSync), so what they set going lands before the same frame in both.
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
  readonly session: Pick<LiveSession, 'appendAudio' | 'send' | 'reply' | 'log' | 'settled'>
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
  /** Virtual only: replay a real-time recording frame by frame (see the header); from the cassette scope. */
  replay?: ReplaySync | null
  /** Real time only: a recording's synchronisation before each frame; from the cassette scope. */
  recording?: RecordingSync | null
}

/** The replay server's side of a frame's synchronisation (src/cassettes/replay-clock.ts). */
export interface ReplaySync {
  /** Whether a stream needs its round trip before the next frame (the recording had more than audio there). */
  roundTripNeeded(label: string): boolean
  /** Resolves once every HTTP answer the replay server released has reached the client that asked. */
  synchronized(): Promise<void>
}

/**
 * The recorder's side of a real-time frame (src/cassettes/request-end-turns.ts). A replay gives an HTTP request that
 * ended before a frame two turns before that frame goes out (ReplaySync.synchronized). Live, a frame that is late
 * goes out without yielding at all, so on a busy machine it went out between an answer (its body read in one turn)
 * and the tool the answer asked for (started a turn later), and the recording dated the tool's completion a frame
 * or two after its replay did. So the recording gives them the same turns.
 */
export interface RecordingSync {
  /** null when no request ended since the last frame; else resolves once every one that ended had its turns. */
  synchronized(): Promise<void> | null
}

/** Bound on round trips per session and step (each lets reactions to the previous one arrive). */
const MAX_SYNC_ROUNDS = 20
const EMPTY = new Int16Array(0)

export class MediaClock {
  readonly mode: ClockMode
  readonly stepMs: number
  readonly #frameMs: number
  readonly #roundTripTimeoutMs: number
  readonly #pacer: FramePacer | null
  readonly #replay: ReplaySync | null
  readonly #recording: RecordingSync | null
  /** Real time: the frame's chunks, one per stream, reused from frame to frame. */
  readonly #chunks: Int16Array[] = []
  #steps = 0

  constructor(options: MediaClockOptions) {
    this.mode = options.mode
    this.stepMs = options.stepMs ?? 200
    this.#frameMs = options.frameMs ?? 20
    this.#roundTripTimeoutMs = options.roundTripTimeoutMs ?? 10_000
    this.#replay = this.mode === 'virtual' ? (options.replay ?? null) : null
    this.#recording = this.mode === 'real_time' ? (options.recording ?? null) : null
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

  /**
   * Real time: how late each frame went out against its slot (ms, in send order; a frame that found its slot
   * missed counts against that slot). null on the virtual clock, where frames have no wall-clock slot.
   */
  frameLateness(): number[] | null {
    return this.#pacer === null ? null : this.#pacer.lateness()
  }

  /** Audio time every stream has sent so far. */
  get nowMs(): number {
    return this.#steps * this.stepMs
  }

  /** Sends one step of audio to every stream's session (and, virtual, waits until each has answered it). */
  async step(streams: readonly ClockedStream[]): Promise<void> {
    if (this.#replay !== null) {
      await this.#replayStep(streams, this.#replay)
    } else if (this.#pacer === null) {
      const samples = (SAMPLE_RATE_HZ * this.stepMs) / 1000
      const chunks = streams.map((stream) => stream.next(samples))
      for (const [index, stream] of streams.entries()) send(stream, chunks[index] as Int16Array)
      for (const stream of streams) await this.#synchronize(stream)
    } else {
      const samples = (SAMPLE_RATE_HZ * this.#frameMs) / 1000
      // The per-frame path allocates as little as it can (no arrays per frame): 64 sessions are 3,200 frames a
      // second, and collecting their garbage stalls every call's next frame at once.
      const chunks = this.#chunks
      chunks.length = streams.length
      for (let frame = 0; frame < this.stepMs / this.#frameMs; frame++) {
        const waiting = this.#pacer.waitForNextSlot()
        if (waiting !== null) await waiting
        const synchronizing = this.#recording?.synchronized() ?? null
        if (synchronizing !== null) {
          await synchronizing
          // The turns took time: the slot is taken as late as it is now, not as it was found before them.
          this.#pacer.resumed()
        }
        this.#pacer.takeSlot()
        for (let index = 0; index < streams.length; index++) {
          chunks[index] = (streams[index] as ClockedStream).next(samples)
        }
        for (let index = 0; index < streams.length; index++) {
          send(streams[index] as ClockedStream, chunks[index] as Int16Array)
        }
        this.#pacer.recordSlotLateness()
      }
      chunks.fill(EMPTY)
    }
    this.#steps += 1
  }

  /** Replay: per frame, one round trip per stream and the HTTP answers in, then every stream's frame. */
  async #replayStep(streams: readonly ClockedStream[], replay: ReplaySync): Promise<void> {
    const samples = (SAMPLE_RATE_HZ * this.#frameMs) / 1000
    for (let frame = 0; frame < this.stepMs / this.#frameMs; frame++) {
      let delivered = false
      for (const stream of streams) {
        if (!replay.roundTripNeeded(stream.label)) continue
        await roundTrip(stream.session, this.#roundTripTimeoutMs)
        delivered = true
      }
      // What the round trips delivered may set work going on a later tick (the tool runtime starts tools outside
      // the receive loop); live, it started while the frame waited for its slot, so it starts before the frame here.
      if (delivered) await nextTurn()
      await replay.synchronized()
      const chunks = streams.map((stream) => stream.next(samples))
      for (const [index, stream] of streams.entries()) send(stream, chunks[index] as Int16Array)
    }
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
    const settled = stream.session.settled
    throw new MediaClockSendError(stream.label, settled?.type === 'failed' ? settled.error : undefined)
  }
  stream.sent?.(chunk)
}

/**
 * A stream's session would not take audio any more (it is closing or over). A session that failed is the cause:
 * why it ended (the offline server's error event naming an offline rule that threw, say; stage.ts reads causes).
 */
export class MediaClockSendError extends StageError {
  readonly label: string

  constructor(label: string, cause?: unknown) {
    super(
      'response_collection',
      `The ${label} session ended while the media clock was sending audio.`,
      cause === undefined ? undefined : { cause },
    )
    this.name = 'MediaClockSendError'
    this.label = label
  }
}

/**
 * A relay: what one session says, heard by another one step later (audio is appended as it arrives). The
 * received pieces wait in a queue read from a moving head (no `shift()` per frame: an assistant's reply can
 * arrive as hundreds of pieces at once, faster than real time, and each frame takes from the front).
 */
export class AudioRelay {
  #buffered: Int16Array[] = []
  /** Index of the first piece not yet taken, and how much of it was taken already. */
  #head = 0
  #headOffset = 0
  #length = 0

  /** Adds received audio to the relay. */
  push(samples: Int16Array): void {
    if (samples.length === 0) return
    this.#buffered.push(samples)
    this.#length += samples.length
  }

  /**
   * The next `samples` of relayed audio, padded with silence when less has arrived. `into`: a chunk of exactly
   * `samples` to fill and return instead of a fresh one (a caller reusing its frame, which keeps nothing of it).
   */
  take(samples: number, into?: Int16Array): Int16Array {
    const chunk = into?.length === samples ? into : new Int16Array(samples)
    let filled = 0
    while (filled < samples && this.#head < this.#buffered.length) {
      const head = this.#buffered[this.#head] as Int16Array
      const count = Math.min(head.length - this.#headOffset, samples - filled)
      chunk.set(
        count === head.length ? head : head.subarray(this.#headOffset, this.#headOffset + count),
        filled,
      )
      filled += count
      this.#headOffset += count
      if (this.#headOffset === head.length) {
        this.#head += 1
        this.#headOffset = 0
      }
    }
    // Drop the taken pieces now and then (not every frame), so the queue does not keep the whole call.
    if (this.#head === this.#buffered.length) {
      this.#buffered = []
      this.#head = 0
    } else if (this.#head >= 256) {
      this.#buffered = this.#buffered.slice(this.#head)
      this.#head = 0
    }
    this.#length -= filled
    if (chunk === into) chunk.fill(0, filled)
    return chunk
  }

  get bufferedSamples(): number {
    return this.#length
  }
}
