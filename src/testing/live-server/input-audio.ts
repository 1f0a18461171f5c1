// `session.input_audio.append` payloads: non-empty base64 of whole 16-bit samples (the offline server speaks
// PCM16 only; G.711 is refused at session.start). The byte count is what advances the session clock.
import { ERROR_CODES, type ProtocolError, protocolError } from './protocol-errors.ts'

/** The number of audio bytes in `audio`, or the `invalid_audio` error the service answers with. */
export function decodedAudioBytes(audio: string): number | ProtocolError {
  if (audio.length === 0) {
    return protocolError(ERROR_CODES.invalidAudio, 'audio must be non-empty base64 PCM16 audio.', 'audio')
  }
  const byteCount = strictBase64ByteLength(audio)
  if (byteCount === null) {
    return protocolError(ERROR_CODES.invalidAudio, 'audio is not valid base64.', 'audio')
  }
  if (byteCount % 2 !== 0) {
    return protocolError(
      ERROR_CODES.invalidAudio,
      `PCM16 audio needs an even number of bytes (whole 16-bit samples); got ${byteCount}.`,
      'audio',
    )
  }
  return byteCount
}

const PAD = 0x3d // '='

function isBase64Letter(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2b || // +
    code === 0x2f // /
  )
}

/**
 * Decoded length of strict base64 (standard alphabet, padded, no whitespace), or null when `text` is not.
 * One pass over the characters: a regular expression here backtracked through the whole string and
 * overflowed the stack on a 4.3 M character append, taking the process and every session with it.
 */
export function strictBase64ByteLength(text: string): number | null {
  const length = text.length
  if (length % 4 !== 0) return null
  const padding =
    length > 0 && text.charCodeAt(length - 1) === PAD ? (text.charCodeAt(length - 2) === PAD ? 2 : 1) : 0
  for (let index = 0; index < length - padding; index++) {
    if (!isBase64Letter(text.charCodeAt(index))) return null
  }
  return (length / 4) * 3 - padding
}
