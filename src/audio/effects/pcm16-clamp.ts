// Int16Array assignment wraps out-of-range values (40000 becomes -25536), which would turn a loud mix into
// clicks; every effect that adds to a signal rounds and saturates through this instead.

import { roundHalfUp } from '../pcm.ts'

export function saturatePcm16(value: number): number {
  return Math.min(32767, Math.max(-32768, roundHalfUp(value)))
}
