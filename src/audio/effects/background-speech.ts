// Background speech mixed under the caller: the bed is read by absolute stream position (looping at its end),
// so it runs on through the caller's pauses and is continuous across chunks, as a conversation in the room
// would be. The bed is shared (never copied or modified): building the effect costs nothing per recording.

import type { AudioEffect } from './effect.ts'
import { saturatePcm16 } from './pcm16-clamp.ts'

export class BackgroundSpeech implements AudioEffect {
  readonly #bed: Int16Array
  readonly #gain: number

  constructor(bed: Int16Array, gain: number) {
    this.#bed = bed
    this.#gain = gain
  }

  process(samples: Int16Array, position: number): void {
    const bed = this.#bed
    const gain = this.#gain
    let cursor = position % bed.length
    for (let i = 0; i < samples.length; i++) {
      samples[i] = saturatePcm16((samples[i] as number) + (bed[cursor] as number) * gain)
      cursor = cursor + 1 === bed.length ? 0 : cursor + 1
    }
  }
}
