// What the client-delegation loopback tests share (the in-process controller's and the service's): a
// client-delegation session config, the restaurant request the offline GPT-Live server hears and the answer the
// offline backend gives, and a way to stream silence until the server's audio-clock-driven output arrives.
import type { LiveSession, SessionConfig } from '../../live/index.ts'

export const CONFIG: SessionConfig = {
  model: 'gpt-live-1',
  instructions: 'You are the Juniper Table voice agent.',
  audio: { format: { type: 'audio/pcm', rate: 24000 } },
  delegation: { type: 'client' },
}
const FRAME = new Uint8Array(960) // 20 ms of 24 kHz PCM16 silence
export const REQUEST = 'Is a table for 4 available on August 7 at 7 p.m.?'
export const ANSWER = 'A table for 4 is available on 2026-08-07 at 19:00. No reservation has been made.'
/** Audio we are willing to stream while waiting for the server's clock-driven output (not a time limit). */
const MAX_AUDIO_MS = 60_000

/** Streams silence frame by frame, letting the loop turn, until `done()` or the audio budget is spent. */
export async function streamUntil(live: LiveSession, done: () => boolean): Promise<boolean> {
  for (let sentMs = 0; sentMs < MAX_AUDIO_MS; sentMs += 20) {
    if (done()) return true
    live.appendAudio(FRAME)
    if (sentMs % 200 === 0) await new Promise((resolve) => setImmediate(resolve))
  }
  return done()
}
