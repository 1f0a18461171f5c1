// The hearing oracle. The offline server cannot recognise speech, so the harness tells it what the caller
// says and when (on the received-audio clock), either up front (the registered script) or while the session
// runs (OfflineLiveServer.hear). When the clock reaches the start of an utterance the caller is heard to
// start speaking (the voice model yields if it was talking); as the clock passes each word, the input
// transcript delta for it is sent; once the clock is RESPONSE_SILENCE_MS past the end of an utterance, the
// voice model acts on it.

import type { OutboundServerEvent } from './events.ts'
import type { HeardUtterance } from './script.ts'
import { captionsFor } from './speech.ts'
import type { AudioClockTimeline } from './timeline.ts'

/**
 * How much caller silence (received audio after an utterance ends) the offline voice model waits for
 * before it takes its turn. 300 ms is a typical end-of-turn pause for conversational voice models.
 */
export const RESPONSE_SILENCE_MS = 300

export interface HearingDeps {
  timeline: AudioClockTimeline
  send: (event: OutboundServerEvent) => void
  isMuted: () => boolean
  /** The caller is heard to start speaking (at the utterance's start on the clock). */
  onSpeechStart: (utterance: HeardUtterance) => void
  /** The voice model takes its turn after a heard utterance. */
  onUtterance: (text: string) => void
}

/** Schedules transcripts and turn-taking for every utterance. Muted audio is not heard. */
export function scheduleHearing(utterances: readonly HeardUtterance[], deps: HearingDeps): void {
  for (const utterance of utterances) scheduleUtterance(utterance, deps)
}

/**
 * Schedules one utterance. Parts whose time the clock has already passed run on the timeline's next pass
 * (the caller of a late utterance runs it at once with `timeline.runDue()`).
 */
export function scheduleUtterance(utterance: HeardUtterance, deps: HearingDeps): void {
  const { timeline, send, isMuted } = deps
  let heard = true
  // Ahead of output released at the same instant: that output would already overlap the caller.
  timeline.schedule(
    utterance.startMs,
    'listening',
    () => {
      if (!isMuted()) deps.onSpeechStart(utterance)
    },
    true,
  )
  for (const fragment of captionsFor(utterance.text, utterance.startMs, utterance.endMs)) {
    timeline.schedule(fragment.end_ms, 'listening', () => {
      if (isMuted()) {
        heard = false
        return
      }
      send({ type: 'session.input_transcript.delta', ...fragment })
    })
  }
  timeline.schedule(utterance.endMs + RESPONSE_SILENCE_MS, 'listening', () => {
    if (heard) deps.onUtterance(utterance.text)
  })
}
