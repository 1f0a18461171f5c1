// `session.input_audio.append` payloads: non-empty base64 of whole 16-bit samples (the offline server speaks
// PCM16 only; G.711 is refused at session.start). The byte count is what advances the session clock.
import { strictBase64ByteLength } from '../../audio/pcm.ts'
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
