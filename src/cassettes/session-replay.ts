// One recorded GPT-Live session played back in answer to what a client sends now. Sent frames are expected in
// two queues, audio appends and everything else, so a control message that now arrives a frame earlier or later
// than recorded still matches; each one heard is handed to the replay's schedule (replay-schedule.ts), which
// decides when the recorded received frames are played: with their audio put back from the PCM file and the
// reply ids (client_event_id) mapped to the ids the client uses now. A round trip of the client's media clock
// (src/live/round-trip.ts), never part of a recording, is answered when the schedule says so.

import type { DivergenceLog } from './divergences.ts'
import { audioBytes } from './files.ts'
import { sha256Hex } from './hashes.ts'
import { firstDifference } from './match.ts'
import type { CassetteFrame, SessionRecord } from './schema.ts'

const APPEND = 'session.input_audio.append'
/** The round-trip marker's command and answer (src/live/round-trip.ts). */
const ROUND_TRIP = 'session.input_audio.unmute'
const ROUND_TRIP_ANSWER = 'session.input_audio.unmuted'
const AUDIO_FIELDS: Readonly<Record<string, string>> = {
  [APPEND]: 'audio',
  'session.output_audio.delta': 'delta',
}

/** What one client message was: recorded frames it accounts for, a round trip, or nothing the recording has. */
export type Received = { type: 'heard'; seqs: number[] } | { type: 'round_trip' } | { type: 'unrecorded' }

export interface SessionReplayOptions {
  record: SessionRecord
  files: ReadonlyMap<string, Uint8Array>
  divergences: DivergenceLog
  /** Sends one event to the client, with the session clock time it was recorded at (undefined: not recorded). */
  send: (event: Record<string, unknown>, atMs: number | undefined) => void
  /** Redacts what is sent now the way the recording was redacted, so the two compare. */
  redact: (event: Record<string, unknown>) => Record<string, unknown>
  /** The assistant turn now (shared by the execution's channels). */
  turn: { value: number; heardCaller: boolean }
}

export class SessionReplay {
  readonly #options: SessionReplayOptions
  readonly #queues: Record<'audio' | 'other', CassetteFrame[]>
  readonly #counts = new Map<string, number>()
  readonly #eventIds = new Map<string, string>()
  #roundTrips = 0
  /** True once the recording's session.closed was played. */
  closed = false

  constructor(options: SessionReplayOptions) {
    this.#options = options
    const sent = options.record.frames.filter((frame) => frame.direction === 'sent')
    this.#queues = {
      audio: sent.filter((frame) => frame.event.type === APPEND),
      other: sent.filter((frame) => frame.event.type !== APPEND),
    }
  }

  get label(): string {
    return this.#options.record.label
  }

  /**
   * One client message now. A diverging one still accounts for the recorded frame it was compared with (the
   * divergence is logged); one the recording has no more of accounts for nothing.
   */
  receive(event: Record<string, unknown>): Received {
    const type = typeof event.type === 'string' ? event.type : '(no type)'
    const queue = this.#queues[type === APPEND ? 'audio' : 'other']
    if (type === ROUND_TRIP && queue[0]?.event.type !== ROUND_TRIP) return { type: 'round_trip' }
    const ordinal = (this.#counts.get(type) ?? 0) + 1
    this.#counts.set(type, ordinal)
    const message = `${type} #${ordinal}`
    const { divergences, turn } = this.#options
    // Real-time pacing sends a frame more or less of trailing silence from one run to the next: silence beyond the
    // recorded appends carries nothing the service would hear, and the recorded silence a client never sends
    // before closing is not missed either. Speech is compared frame by frame.
    if (type === APPEND && queue.length === 0 && isSilence(appendedBytes(event)))
      return { type: 'unrecorded' }
    const dropped = type === 'session.close' ? this.#dropTrailingAudio(message) : []
    const expected = queue.shift()
    if (expected === undefined) {
      divergences.add(
        this.label,
        turn.value,
        message,
        null,
        'was not sent at this point in the recording (it has no more such frames)',
      )
      return dropped.length === 0 ? { type: 'unrecorded' } : { type: 'heard', seqs: dropped }
    }
    this.#compare(expected, event, message)
    if (typeof expected.event.event_id === 'string' && typeof event.event_id === 'string') {
      this.#eventIds.set(expected.event.event_id, event.event_id)
    }
    return { type: 'heard', seqs: [...dropped, expected.seq] }
  }

  /** Answers a round trip of the client's media clock (the schedule says when). */
  answerRoundTrip(event: Record<string, unknown>): void {
    this.#roundTrips += 1
    const answer: Record<string, unknown> = {
      type: ROUND_TRIP_ANSWER,
      event_id: `evt_replay_round_trip_${this.#roundTrips}`,
    }
    if (typeof event.event_id === 'string') answer.client_event_id = event.event_id
    this.#options.send(answer, undefined)
  }

  /** The client closes: recorded appends it did not send are consumed; a voiced one missing is a divergence. */
  #dropTrailingAudio(message: string): number[] {
    const remaining = this.#queues.audio.splice(0)
    const voiced = remaining.filter(
      (frame) => frame.audio !== undefined && !isSilence(audioBytes(this.#options.files, frame.audio)),
    )
    if (voiced.length > 0) {
      const { divergences, turn } = this.#options
      divergences.add(
        this.label,
        turn.value,
        message,
        null,
        `came before ${voiced.length} recorded frames of caller speech were sent`,
      )
    }
    return remaining.map((frame) => frame.seq)
  }

  #compare(expected: CassetteFrame, event: Record<string, unknown>, message: string): boolean {
    const { divergences, turn } = this.#options
    if (expected.event.type !== event.type) {
      const difference = { path: 'type', recorded: expected.event.type, now: event.type }
      divergences.add(this.label, turn.value, message, difference)
      return false
    }
    const field = AUDIO_FIELDS[String(event.type)]
    const now = { ...event }
    if (field !== undefined && expected.audio !== undefined) {
      const bytes =
        typeof now[field] === 'string' ? Buffer.from(now[field] as string, 'base64') : Buffer.alloc(0)
      delete now[field]
      // The recorded bytes are at hand: compared as they are (the hashes only name a difference).
      if (!bytes.equals(audioBytes(this.#options.files, expected.audio))) {
        const hash = sha256Hex(bytes)
        const difference = {
          path: field,
          recorded: `sha256 ${expected.audio.sha256.slice(0, 12)}`,
          now: `sha256 ${hash.slice(0, 12)}`,
        }
        divergences.add(
          this.label,
          turn.value,
          message,
          difference,
          `the caller audio differs (${difference.recorded}, now ${difference.now})`,
        )
        return false
      }
      // An audio frame carries nothing else but its (volatile) event id: nothing more to compare.
      if (onlyTypeAndId(now) && onlyTypeAndId(expected.event)) return true
    }
    const difference = firstDifference(expected.event, this.#options.redact(now))
    if (difference === null) return true
    divergences.add(this.label, turn.value, message, difference)
    return false
  }

  /** Plays one recorded received frame (the schedule says when). */
  play(frame: CassetteFrame): void {
    const event: Record<string, unknown> = { ...frame.event }
    const field = AUDIO_FIELDS[String(event.type)]
    if (field !== undefined && frame.audio !== undefined) {
      // Encoded from a view of the PCM file's bytes: no copy of them per played frame.
      const bytes = audioBytes(this.#options.files, frame.audio)
      event[field] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
    }
    this.#mapReplyIds(event)
    const { turn } = this.#options
    if (event.type === 'session.input_transcript.delta') turn.heardCaller = true
    if (
      this.label === 'assistant' &&
      event.type === 'session.output_transcript.delta' &&
      (turn.heardCaller || turn.value === 0)
    ) {
      turn.value += 1
      turn.heardCaller = false
    }
    if (event.type === 'session.closed') this.closed = true
    this.#options.send(event, frame.at_ms)
  }

  /** A reply names the client's event id: the one the client used now for the frame recorded with that id. */
  #mapReplyIds(event: Record<string, unknown>): void {
    const mapped = (id: unknown) => (typeof id === 'string' ? (this.#eventIds.get(id) ?? id) : id)
    if ('client_event_id' in event) event.client_event_id = mapped(event.client_event_id)
    const error = event.error
    if (typeof error === 'object' && error !== null && 'client_event_id' in error) {
      event.error = { ...error, client_event_id: mapped((error as Record<string, unknown>).client_event_id) }
    }
  }
}

function onlyTypeAndId(event: Record<string, unknown>): boolean {
  for (const key in event) if (key !== 'type' && key !== 'event_id') return false
  return true
}

function appendedBytes(event: Record<string, unknown>): Uint8Array {
  return typeof event.audio === 'string' ? Buffer.from(event.audio, 'base64') : new Uint8Array(0)
}

/** Digital silence: every byte zero (what the harness sends between utterances). */
function isSilence(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte !== 0) return false
  return true
}
