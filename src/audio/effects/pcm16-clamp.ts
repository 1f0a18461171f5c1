// Int16Array assignment wraps out-of-range values (40000 becomes -25536), which would turn a loud mix into
// clicks; every effect that adds to a signal rounds and saturates through this instead.

import { roundHalfUp as importedRoundHalfUp } from '../pcm.ts'

// A module constant, not the import binding itself. The per-sample loops inline saturatePcm16, and through the
// binding V8 did not reliably inline the call inside it as well: the room mix (RoomMix, three calls per sample)
// took 45-58 ms of CPU per minute of audio, and 27-30 ms with this constant, the same bytes; the echo and
// background_speech presets ran 1.4-2.4 times as fast (bench/audio-effects.ts --before, 4 rounds).
const roundHalfUp = importedRoundHalfUp

export function saturatePcm16(value: number): number {
  return Math.min(32767, Math.max(-32768, roundHalfUp(value)))
}
