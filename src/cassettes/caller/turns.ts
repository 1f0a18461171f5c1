// The assistant's turns of a recorded conversation, as a replayed caller divides them: the recorded caller's
// utterances are the fixed points (the caller speaks on its original clock whatever the assistant does), so
// assistant turn k is everything the assistant said after the caller's k-th utterance began and before the next
// one began (turn 0: before the caller first spoke). An utterance begins with caller audio that arrives after more
// than ONSET_GAP_MS without any: both the recording and a replay read the same recorded arrival times, so both
// sides are divided at the same points. The same caller frames say where the recorded caller runs out: its last
// line, and the end of its session (the recorded call's own end).
//
// Two turns mean the same when their words are a near-duplicate (the repetition metric's measure: word edit
// distance at most 20% of the longer, after normalising case and punctuation), or when a turn that was still being
// spoken when the caller's next line began says so far what the recording said. This is a deterministic proxy for
// "the same meaning": rephrasings beyond it count as a departure, and the row shows both texts.
import { NEAR_DUPLICATE_SIMILARITY, wordSimilarity } from '../../metrics/repetition.ts'
import { MAX_COMPARED_WORDS, spokenWords } from '../../metrics/spoken-words.ts'
import type { Cassette } from '../schema.ts'

/** Caller audio after this long without any starts a new caller utterance. */
export const ONSET_GAP_MS = 700

/** Splits a stream of caller audio arrival times into utterance onsets. */
export class CallerOnsets {
  #lastAudioMs: number | null = null
  readonly onsets: number[] = []

  /** Caller audio recorded at `atMs`; true when it begins an utterance. */
  audio(atMs: number): boolean {
    const begins = this.#lastAudioMs === null || atMs - this.#lastAudioMs > ONSET_GAP_MS
    this.#lastAudioMs = atMs
    if (begins) this.onsets.push(atMs)
    return begins
  }
}

const CAPTION = 'session.output_transcript.delta'
const AUDIO = 'session.output_audio.delta'

export interface RecordedTurns {
  /** The recorded assistant turns (index = turn number, 0 before the caller first spoke). */
  turns: string[]
  /** The recorded caller's utterance onsets. */
  onsets: number[]
  /**
   * Where the recorded caller runs out (null without a caller session, or one that never spoke: it has no line to
   * run out of): `lastLineMs`, its last speech frame (audio or caption); `endMs`, the last frame of its session
   * either way, which is where the recorded call itself was over (its closing included), so whatever ended the
   * recording had happened by then.
   */
  callerEnd: { lastLineMs: number; endMs: number } | null
}

/**
 * The recorded assistant turns, the caller's onsets and where it runs out. Without a caller session (WALK), the
 * whole recorded reply is turn 1, after the request.
 */
export function recordedTurns(cassette: Cassette): RecordedTurns {
  const assistant = cassette.sessions.find((session) => session.label === 'assistant')
  const caller = cassette.sessions.find((session) => session.label === 'caller')
  const captions = (assistant?.frames ?? []).filter(
    (frame) => frame.direction === 'received' && frame.event.type === CAPTION,
  )
  if (caller === undefined) {
    const reply = captions.map((frame) => String(frame.event.delta ?? '')).join('')
    return { turns: ['', reply], onsets: [0], callerEnd: null }
  }
  const onsets = new CallerOnsets()
  let lastLineMs: number | null = null
  let endMs = 0
  for (const frame of caller.frames) {
    endMs = Math.max(endMs, frame.at_ms)
    if (frame.direction !== 'received') continue
    if (frame.event.type === AUDIO) onsets.audio(frame.at_ms)
    if (frame.event.type === AUDIO || frame.event.type === CAPTION) {
      lastLineMs = Math.max(lastLineMs ?? 0, frame.at_ms)
    }
  }
  const callerEnd = lastLineMs === null ? null : { lastLineMs, endMs }
  const turns = Array.from({ length: onsets.onsets.length + 1 }, () => '')
  for (const frame of captions) {
    const turn = onsets.onsets.filter((onset) => onset <= frame.at_ms).length
    turns[turn] += String(frame.event.delta ?? '')
  }
  return { turns, onsets: onsets.onsets, callerEnd }
}

const wordsOf = (text: string) => spokenWords(text).slice(0, MAX_COMPARED_WORDS)

/** Whether `now` says what `recorded` said (see the module comment). */
export function sameMeaning(recorded: string, now: string, stillSpeaking = false): boolean {
  const before = wordsOf(recorded)
  const after = wordsOf(now)
  if (wordSimilarity(before, after) >= NEAR_DUPLICATE_SIMILARITY) return true
  if (!stillSpeaking || after.length === 0 || after.length >= before.length) return false
  return wordSimilarity(before.slice(0, after.length), after) >= NEAR_DUPLICATE_SIMILARITY
}
