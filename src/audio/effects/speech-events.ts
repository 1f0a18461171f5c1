// Short sounds from the caller's side that are not addressed to the assistant: a cough (the reference's
// "vocal tic": 80 ms around 530 Hz) and a snippet of non-directed speech (160 ms, the caller talking to someone
// else in the room). Each kind repeats on a fixed period of the stream clock, first at one period, so event k
// starts at sample k·period whatever the chunk sizes. They are mixed after the caller's clean speech has been
// measured, so they never count as caller speech.

import { SAMPLE_RATE_HZ, samplesForMs } from '../pcm.ts'
import { syntheticSpeech } from '../synthetic-voice.ts'
import type { AudioEffect } from './effect.ts'
import { saturatePcm16 } from './pcm16-clamp.ts'
import { SeededRandom } from './random.ts'

export const VOCAL_TIC_MS = 80
const VOCAL_TIC_HZ = 530
export const NON_DIRECTED_MS = 160
/** Both kinds peak here: audible under a caller speaking around -21 dBFS, never louder than the caller. */
const EVENT_PEAK = 6000
/** The cough's breath noise is fixed, not seeded per recording: a cough is the same sound every time. */
const COUGH_NOISE_SEED = 0x0c0ff

let cough: Int16Array | undefined
let aside: Int16Array | undefined

/** A cough: a 530 Hz voiced burst with breath noise under a fast-attack, decaying envelope (shared; read only). */
export function coughSound(): Int16Array {
  cough ??= makeCough()
  return cough
}

/** 160 ms of voiced speech (our synthetic voice) with faded edges, quieter than the caller (shared; read only). */
export function nonDirectedSpeechSound(): Int16Array {
  aside ??= makeAside()
  return aside
}

function makeCough(): Int16Array {
  const length = samplesForMs(VOCAL_TIC_MS)
  const random = new SeededRandom(COUGH_NOISE_SEED)
  const raw = new Float64Array(length)
  const attack = samplesForMs(6)
  for (let i = 0; i < length; i++) {
    const t = i / SAMPLE_RATE_HZ
    const envelope = i < attack ? i / attack : Math.exp(-(i - attack) / (length / 4))
    const voiced = Math.sin(2 * Math.PI * VOCAL_TIC_HZ * t) + 0.4 * Math.sin(4 * Math.PI * VOCAL_TIC_HZ * t)
    raw[i] = envelope * (voiced + 0.6 * (random.nextUnit() * 2 - 1))
  }
  return scaleToPeak(raw)
}

function makeAside(): Int16Array {
  const speech = syntheticSpeech('Just a second, I am on the phone.')
  const length = samplesForMs(NON_DIRECTED_MS)
  const fade = samplesForMs(15)
  const raw = new Float64Array(length)
  for (let i = 0; i < length; i++) {
    const edge = Math.min(1, i / fade, (length - 1 - i) / fade)
    raw[i] = (speech[i] ?? 0) * edge
  }
  return scaleToPeak(raw)
}

function scaleToPeak(raw: Float64Array): Int16Array {
  let peak = 0
  for (const value of raw) peak = Math.max(peak, Math.abs(value))
  return Int16Array.from(raw, (value) => Math.round((value * EVENT_PEAK) / peak))
}

/** Mixes `sound` into the stream every `periodMs`, counting the events that start. */
export class PeriodicSound implements AudioEffect {
  readonly #sound: Int16Array
  readonly #period: number
  #events = 0

  constructor(sound: Int16Array, periodMs: number) {
    this.#sound = sound
    this.#period = Math.max(1, samplesForMs(periodMs))
  }

  /** Events whose first sample has been processed. */
  get events(): number {
    return this.#events
  }

  process(samples: Int16Array, position: number): void {
    const period = this.#period
    const sound = this.#sound
    const end = position + samples.length
    // Event k (k >= 1) covers [k·period, k·period + sound.length); visit every one overlapping this chunk.
    const first = Math.max(1, Math.floor((position - sound.length) / period) + 1)
    const last = Math.floor((end - 1) / period)
    for (let k = first; k <= last; k++) {
      const start = k * period
      if (start >= position) this.#events++
      const from = Math.max(start, position)
      const to = Math.min(start + sound.length, end)
      for (let p = from; p < to; p++) {
        samples[p - position] = saturatePcm16(
          (samples[p - position] as number) + (sound[p - start] as number),
        )
      }
    }
  }
}
