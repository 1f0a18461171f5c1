// Background speech, then white noise, then echo, in one pass over the samples: the three effects a room adds
// before the phone line, run back to back in the `realistic` preset. Each sample goes through the same steps,
// in the same order, with the same rounding and saturation as BackgroundSpeech, WhiteNoise (no edge share)
// and Echo one after the other, so the bytes are theirs (room-mix.test.ts compares them). The loop runs in
// WebAssembly (assets/room-mix.c): about 20 ms of CPU per minute of audio, where the JavaScript loop took 27-58 ms,
// depending on what V8 made of it in that process.

import type { AudioEffect } from './effect.ts'
import { type EffectMemory, instantiateEffectModule } from './wasm-module.ts'
import { noiseShape } from './white-noise.ts'

export interface RoomMixSettings {
  /** The background bed (shared, never modified) and its gain, as BackgroundSpeech takes them. */
  bed: Int16Array
  backgroundGain: number
  /** White noise level and random seed, as WhiteNoise takes them. */
  noiseRms: number
  noiseSeed: number
  /** Echo delay in samples (1 or more) and decay, as Echo takes them. */
  echoDelaySamples: number
  echoDecay: number
}

/** Whether RoomMix reproduces these settings (noise without edge share, a non-empty bed and delay line). */
export function roomMixApplies(settings: Pick<RoomMixSettings, 'bed' | 'noiseRms' | 'echoDelaySamples'>) {
  const shape = noiseShape(settings.noiseRms)
  return (
    settings.bed.length > 0 && shape.amplitude > 0 && shape.edgeShare === 0 && settings.echoDelaySamples > 0
  )
}

/** Samples of a chunk the module takes at once (longer chunks go through in blocks). */
const BLOCK_SAMPLES = 24_000
const PAGE_BYTES = 65_536
const BYTES_PER_SAMPLE = 2

interface Exports {
  memory: EffectMemory
  heap_base(): number
  state(): number
  mix(
    samples: number,
    count: number,
    bed: number,
    bedLength: number,
    bedCursor: number,
    gain: number,
    amplitude: number,
    decay: number,
    line: number,
    lineLength: number,
  ): void
}

export class RoomMix implements AudioEffect {
  readonly #module: Exports
  readonly #bedLength: number
  readonly #gain: number
  readonly #amplitude: number
  readonly #decay: number
  readonly #lineLength: number
  /** Byte offsets in the module's memory: the bed (a copy), the echo line, then the block being mixed. */
  readonly #bedAt: number
  readonly #lineAt: number
  readonly #blockAt: number
  /** The block, whole: made once the memory has grown to its size (growing would detach it). */
  readonly #block: Int16Array

  constructor(settings: RoomMixSettings) {
    if (!roomMixApplies(settings)) throw new RangeError('RoomMix: these settings need the separate effects')
    this.#module = instantiateEffectModule<Exports>('room-mix')
    this.#bedLength = settings.bed.length
    this.#gain = settings.backgroundGain
    this.#amplitude = noiseShape(settings.noiseRms).amplitude
    this.#decay = settings.echoDecay
    this.#lineLength = settings.echoDelaySamples
    this.#bedAt = this.#module.heap_base()
    this.#lineAt = this.#bedAt + BYTES_PER_SAMPLE * this.#bedLength
    this.#blockAt = this.#lineAt + BYTES_PER_SAMPLE * this.#lineLength
    const memory = this.#module.memory
    const needed = this.#blockAt + BYTES_PER_SAMPLE * BLOCK_SAMPLES
    if (needed > memory.buffer.byteLength)
      memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE_BYTES))
    this.#samplesAt(this.#bedAt, this.#bedLength).set(settings.bed)
    // The noise generator's state, then the echo line's cursor (room-mix.c), both unsigned 32-bit.
    new Uint32Array(memory.buffer, this.#module.state(), 2).set([settings.noiseSeed >>> 0, 0])
    this.#block = this.#samplesAt(this.#blockAt, BLOCK_SAMPLES)
  }

  process(samples: Int16Array, position: number): void {
    for (let start = 0; start < samples.length; start += BLOCK_SAMPLES) {
      const piece =
        samples.length <= BLOCK_SAMPLES
          ? samples
          : samples.subarray(start, Math.min(samples.length, start + BLOCK_SAMPLES))
      this.#block.set(piece)
      this.#module.mix(
        this.#blockAt,
        piece.length,
        this.#bedAt,
        this.#bedLength,
        (position + start) % this.#bedLength,
        this.#gain,
        this.#amplitude,
        this.#decay,
        this.#lineAt,
        this.#lineLength,
      )
      piece.set(piece.length === BLOCK_SAMPLES ? this.#block : this.#block.subarray(0, piece.length))
    }
  }

  #samplesAt(byteOffset: number, length: number): Int16Array {
    return new Int16Array(this.#module.memory.buffer, byteOffset, length)
  }
}
