// Packet loss at the 20 ms transport frame: a lost frame becomes silence of the same length (§5), as when a
// network drops the packet and the receiver plays nothing.
//
// Exact, not Bernoulli: independent coin flips at 4 % lost 3.3 % of one recording's frames (spec/audio.md §7),
// so a seed would not say how many frames are lost. Instead the stream is cut into consecutive windows of
// burst/rate frames (window k spans frames ceil(k·P) to ceil((k+1)·P) - 1, P = burst/rate) and each window
// loses exactly one burst of `burst` consecutive frames at a seeded offset. Over any whole number of windows
// the lost fraction is exactly the rate. The offset never takes a window's first frame when the window has
// room, so two bursts never touch and a burst of 1 stays a single-frame loss.
// Windows are drawn in stream order from one generator, so the lost frames depend only on the seed, the rate
// and the burst, never on chunk sizes.

import { SAMPLES_PER_FRAME } from '../pcm.ts'
import type { AudioEffect } from './effect.ts'
import { SeededRandom } from './random.ts'

export class PacketLoss implements AudioEffect {
  readonly #random: SeededRandom
  readonly #burst: number
  readonly #framesPerBurst: number
  #windowIndex = -1
  #windowEnd = 0
  #burstStart = 0
  #lastCountedFrame = -1
  readonly #lostFrames: number[] = []
  #lostTicks = 0

  constructor(rate: number, burst: number, seed: number) {
    this.#random = new SeededRandom(seed)
    this.#burst = burst
    this.#framesPerBurst = rate > 0 ? burst / rate : Number.POSITIVE_INFINITY
  }

  /** Indices of the 20 ms frames lost so far, in order. */
  get lostFrames(): readonly number[] {
    return this.#lostFrames
  }

  /** Chunks (ticks) in which at least one frame was lost. */
  get lostTicks(): number {
    return this.#lostTicks
  }

  process(samples: Int16Array, position: number): void {
    if (this.#framesPerBurst === Number.POSITIVE_INFINITY) return
    let lostHere = false
    let i = 0
    while (i < samples.length) {
      const frame = Math.floor((position + i) / SAMPLES_PER_FRAME)
      const frameEnd = (frame + 1) * SAMPLES_PER_FRAME - position
      const stop = Math.min(frameEnd, samples.length)
      if (this.#isLost(frame)) {
        samples.fill(0, i, stop)
        lostHere = true
        if (frame > this.#lastCountedFrame) {
          this.#lostFrames.push(frame)
          this.#lastCountedFrame = frame
        }
      }
      i = stop
    }
    if (lostHere) this.#lostTicks++
  }

  #isLost(frame: number): boolean {
    while (frame >= this.#windowEnd) this.#nextWindow()
    return frame >= this.#burstStart && frame < this.#burstStart + this.#burst
  }

  #nextWindow(): void {
    this.#windowIndex++
    const start = this.#windowBoundary(this.#windowIndex)
    this.#windowEnd = this.#windowBoundary(this.#windowIndex + 1)
    const room = this.#windowEnd - start - this.#burst
    this.#burstStart = start + (room >= 1 ? this.#random.nextIntInclusive(1, room) : 0)
  }

  #windowBoundary(k: number): number {
    // The tolerance keeps products such as 3 · (2 / 0.08) = 75.00000000000001 on their exact integer.
    return Math.ceil(k * this.#framesPerBurst - 1e-9)
  }
}
