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

/** The base64 payload of `session.input_audio.append`, read straight from the view's bytes (no copy). */
export function encodeAudioAppend(audio: Uint8Array): string {
  return Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength).toString('base64')
}
