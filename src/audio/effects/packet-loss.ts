// Packet loss (§5): a lost frame becomes silence of the same length, as when a network drops the packet and the
// receiver plays nothing. The frame is the effect frame (RealismOptions.frameMs): the reference conditions
// audio in 200 ms frames for recordings and in ticks for a simulated call, so §5's burst of 2 frames silences
// 400 ms there, not the 40 ms of two transport frames.
//
// Which frames are lost follows the reference's two-state (Gilbert) model with §5's two parameters: in the good
// state each frame is lost with probability `rate`, and a loss begins a burst of `burst` consecutive lost
// frames; the frame after a burst is in the good state again, so it may begin another burst at once. Hence:
// - every run of lost frames is a whole number of bursts, one more with probability `rate`;
// - the kept frames between two runs are geometric with mean 1/rate;
// - the long-run lost share is rate·burst / (1 + rate·(burst - 1)) (expectedLossFraction): 14.8 % for the
//   packet_loss preset (0.08, 2), 4 % for realistic (0.04, 1).
// The choices come from one seeded generator, one draw per good-state frame in stream order, and frames are
// placed by absolute stream position, so the lost frames depend only on the seed, the parameters and the frame
// length, never on how the stream is cut into chunks.

import type { AudioEffect } from './effect.ts'
import { SeededRandom } from './random.ts'

/** The long-run share of frames lost by the two-state model at `rate` and `burst`. */
export function expectedLossFraction(rate: number, burst: number): number {
  return (rate * burst) / (1 + rate * (burst - 1))
}

export class PacketLoss implements AudioEffect {
  readonly #random: SeededRandom
  readonly #rate: number
  readonly #burst: number
  readonly #frameSamples: number
  /** The next frame whose fate is not decided yet, and how many lost frames the current burst still has. */
  #nextFrame = 0
  #burstLeft = 0
  #currentLost = false
  readonly #lostFrames: number[] = []
  #lostTicks = 0

  constructor(rate: number, burst: number, seed: number, frameSamples: number) {
    if (!Number.isInteger(frameSamples) || frameSamples < 1) {
      throw new Error(`PacketLoss: the frame must be a whole number of samples; got ${frameSamples}`)
    }
    this.#random = new SeededRandom(seed)
    this.#rate = rate
    this.#burst = burst
    this.#frameSamples = frameSamples
  }

  /** Indices of the frames lost so far, in order. */
  get lostFrames(): readonly number[] {
    return this.#lostFrames
  }

  /** Chunks (ticks) in which at least one frame was lost. */
  get lostTicks(): number {
    return this.#lostTicks
  }

  process(samples: Int16Array, position: number): void {
    if (this.#rate <= 0) return
    let lostHere = false
    let i = 0
    while (i < samples.length) {
      const frame = Math.floor((position + i) / this.#frameSamples)
      const stop = Math.min((frame + 1) * this.#frameSamples - position, samples.length)
      if (this.#isLost(frame)) {
        samples.fill(0, i, stop)
        lostHere = true
      }
      i = stop
    }
    if (lostHere) this.#lostTicks++
  }

  /** Decide frames in order up to `frame` (chunks arrive in stream order, so each is decided once). */
  #isLost(frame: number): boolean {
    while (this.#nextFrame <= frame) {
      if (this.#burstLeft > 0) {
        this.#burstLeft--
        this.#currentLost = true
      } else {
        this.#currentLost = this.#random.nextUnit() < this.#rate
        if (this.#currentLost) this.#burstLeft = this.#burst - 1
      }
      if (this.#currentLost) this.#lostFrames.push(this.#nextFrame)
      this.#nextFrame++
    }
    return this.#currentLost
  }
}
