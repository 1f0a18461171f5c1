// Int16Array assignment wraps out-of-range values (40000 becomes -25536), which would turn a loud mix into
// clicks; every effect that adds to a signal rounds and saturates through this instead.

import { roundHalfUp as importedRoundHalfUp } from '../pcm.ts'

// A module constant, not the import binding itself. The per-sample loops inline saturatePcm16, and through the
// binding V8 did not reliably inline the call inside it as well: BackgroundSpeech then Echo over a minute of audio
// in 1 s chunks took 27-49 ms of CPU, and 15-18 ms with this constant, the same bytes (a scratch bench, three
// processes each).
const roundHalfUp = importedRoundHalfUp

export function saturatePcm16(value: number): number {
  return Math.min(32767, Math.max(-32768, roundHalfUp(value)))
}
