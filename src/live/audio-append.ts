// Caller-audio framing rules, split out of session.ts: which formats need whole 16-bit samples and how an append's
// bytes travel (base64). The session decides whether audio may be sent at all; this decides what a valid append is.
import type { SessionConfig } from './events.ts'

/** PCM16 (the default format) needs whole 16-bit samples; the 8-bit G.711 formats take any byte count. */
export function usesTwoByteSamples(config: SessionConfig): boolean {
  const format = config.audio?.format
  return format === undefined || format.type === 'audio/pcm'
}

/** Why `audio` cannot be one append, or null when it can. */
export function audioAppendProblem(audio: Uint8Array, evenBytes: boolean): string | null {
  if (audio.byteLength === 0) return 'an audio append must not be empty'
  if (evenBytes && audio.byteLength % 2 !== 0) {
    return `PCM16 audio needs an even byte count, got ${audio.byteLength} bytes`
  }
  return null
}

// The append frame's text is written byte by byte into one reused buffer and read out as a single string, so a
// frame costs one string on the heap. Encoding to a base64 string and then JSON.stringify of the event made two
// (about 0.9 kB each for a 20 ms frame): at 64 real-time sessions that was 3,200 frames a second of young garbage,
// the bulk of what the scavenger collected in the middle of the calls. The text is exactly what
// JSON.stringify({ type, audio }) gives: base64 has no character JSON escapes.
const FRAME_HEAD = '{"type":"session.input_audio.append","audio":"'
const FRAME_TAIL = '"}'
const ALPHABET = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 'latin1')
const PAD = 0x3d // '='
let scratch = Buffer.alloc(0)

/**
 * The `session.input_audio.append` frame (its JSON text) carrying `audio` as base64, read straight from the view's
 * bytes.
 */
export function audioAppendFrame(audio: Uint8Array): string {
  const length = FRAME_HEAD.length + 4 * Math.ceil(audio.byteLength / 3) + FRAME_TAIL.length
  if (scratch.length < length) {
    scratch = Buffer.alloc(Math.max(length, 2 * scratch.length))
    scratch.write(FRAME_HEAD, 0, 'latin1')
  }
  let at = writeBase64(audio, scratch, FRAME_HEAD.length)
  scratch[at++] = FRAME_TAIL.charCodeAt(0)
  scratch[at++] = FRAME_TAIL.charCodeAt(1)
  return scratch.toString('latin1', 0, at)
}

/** The base64 audio inside a frame from audioAppendFrame (a view of the frame's text, not a copy). */
export function audioOfAppendFrame(frame: string): string {
  return frame.slice(FRAME_HEAD.length, frame.length - FRAME_TAIL.length)
}

/** Writes `bytes` as base64 (standard alphabet, padded) into `out` from `at`; returns the end. */
function writeBase64(bytes: Uint8Array, out: Uint8Array, at: number): number {
  const whole = bytes.length - (bytes.length % 3)
  let index = 0
  for (; index < whole; index += 3) {
    const triple =
      ((bytes[index] as number) << 16) | ((bytes[index + 1] as number) << 8) | (bytes[index + 2] as number)
    out[at++] = ALPHABET[triple >>> 18] as number
    out[at++] = ALPHABET[(triple >>> 12) & 63] as number
    out[at++] = ALPHABET[(triple >>> 6) & 63] as number
    out[at++] = ALPHABET[triple & 63] as number
  }
  const rest = bytes.length - whole
  if (rest > 0) {
    const triple = ((bytes[whole] as number) << 16) | (rest === 2 ? (bytes[whole + 1] as number) << 8 : 0)
    out[at++] = ALPHABET[triple >>> 18] as number
    out[at++] = ALPHABET[(triple >>> 12) & 63] as number
    out[at++] = rest === 2 ? (ALPHABET[(triple >>> 6) & 63] as number) : PAD
    out[at++] = PAD
  }
  return at
}
