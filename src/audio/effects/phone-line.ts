// The phone line's sample path in WebAssembly (assets/phone-line.c; the committed .wasm, rebuilt by
// assets/make-wasm.sh), and the design of its rate filters: 24 kHz -> 8 kHz and back up, as one pair of polyphase
// FIR filters run with SIMD. telephony.ts is the effect around it (the band-pass design, the codec, the chunking).
//
// Why not speex (../resampler.ts) as before: at quality 5 its two passes were about 75 ms of CPU per minute of
// audio, the larger part of the `realistic` preset. A 3:1 ratio needs no fractional phases, and a phone line
// needs nothing above 3.4 kHz, so one 96-tap low-pass at 24 kHz serves both ways: it is computed only at every
// third input going down, and as three 32-tap phases going up.
//
// The filter: a windowed sinc (Kaiser window, beta 5.65: about 60 dB stopband), cut at 3.9 kHz. It is flat
// within 0.1 dB to 3.4 kHz, the band's top (TELEPHONY_BAND_HZ), and 60 dB down from 4.4 kHz, so nothing the
// 8 kHz line cannot carry folds into the band going down (anything from 4.6 kHz would land below 3.4 kHz), and
// the images of the band going up (8 kHz minus the band, from 4.6 kHz) are removed. phone-line.test.ts checks
// the design from its taps and the running line with tones. It is linear phase: each pass delays by 47.5 samples
// at 24 kHz, 95 (3.96 ms) for the round trip.

import type { BiquadSection } from './biquad.ts'
import { type EffectMemory, instantiateEffectModule } from './wasm-module.ts'

/** The transport rate the line converts from and back to. */
export const PHONE_TRANSPORT_RATE_HZ = 24_000
const FACTOR = 3
const CUTOFF_HZ = 3_900
const KAISER_BETA = 5.65
/** The band-pass the line runs at 8 kHz: two high-pass and two low-pass sections (telephony.ts). */
const BAND_SECTIONS = 4

/** The rate filter's length at 24 kHz (phone-line.c's TAPS; each line checks its module agrees). */
export const PHONE_LINE_TAPS = 96
/** The round trip's delay, in 24 kHz samples: two linear-phase passes of (taps - 1) / 2 each. */
export const PHONE_LINE_DELAY_SAMPLES = PHONE_LINE_TAPS - 1

interface Exports {
  memory: EffectMemory
  down_taps(): number
  up_taps(): number
  input_block(): number
  wide_block(): number
  block_samples(): number
  narrow_max(): number
  taps(): number
  band(): number
  codec(): number
  set_gain(gain: number): void
  line(count: number): number
  taps_written(): void
}

/** Zeroth-order modified Bessel function of the first kind (the Kaiser window's), by its power series. */
function besselI0(x: number): number {
  let sum = 1
  let term = 1
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2
    sum += term
    if (term < sum * 1e-17) break
  }
  return sum
}

let designed: Float64Array | undefined

/**
 * The line's low-pass at 24 kHz: a Kaiser-windowed sinc of PHONE_LINE_TAPS taps, cut at CUTOFF_HZ, with unity gain
 * at DC. Designed once per process: every line uses the same taps.
 */
export function phoneLineLowPass(): Float64Array {
  designed ??= kaiserLowPass(PHONE_LINE_TAPS)
  return designed
}

function kaiserLowPass(count: number): Float64Array {
  const taps = new Float64Array(count)
  const middle = (count - 1) / 2
  const cut = (2 * CUTOFF_HZ) / PHONE_TRANSPORT_RATE_HZ
  let sum = 0
  for (let k = 0; k < count; k++) {
    const t = k - middle
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * cut * t) / (Math.PI * cut * t)
    const window = besselI0(KAISER_BETA * Math.sqrt(1 - (t / middle) ** 2)) / besselI0(KAISER_BETA)
    taps[k] = cut * sinc * window
    sum += taps[k] as number
  }
  for (let k = 0; k < count; k++) taps[k] = (taps[k] as number) / sum
  return taps
}

/**
 * One phone line in WebAssembly (assets/phone-line.c): down to 8 kHz, the band-pass sections and gain, the codec
 * (as a table: what each PCM16 value, index value + 32768, comes back as), up to 24 kHz. `process` takes at most
 * blockSamples transport samples and returns the transport samples they made: three per 8 kHz sample, and one 8 kHz
 * sample per three inputs counted across calls (ceil(n / 3) after the first n). The result is a view of the
 * line's own memory, valid until the next call.
 */
export class PhoneLine {
  readonly #exports: Exports
  /** The module's input and output blocks, whole. Its memory never grows (make-wasm.sh), so the views stay valid. */
  readonly #input: Int16Array
  readonly #wide: Int16Array
  /** The most input samples `process` takes at once. */
  readonly blockSamples: number

  constructor(band: readonly BiquadSection[], gain: number, codec: Int16Array) {
    this.#exports = instantiateEffectModule<Exports>('phone-line')
    const memory = this.#exports.memory
    this.blockSamples = this.#exports.block_samples()
    const count = this.#exports.taps()
    if (count !== PHONE_LINE_TAPS) {
      throw new Error(
        `phone line: the module's filter has ${count} taps, phone-line.ts designs ${PHONE_LINE_TAPS}`,
      )
    }
    const lowPass = phoneLineLowPass()
    // Reversed, so each output is the taps times the newest inputs in order (see phone-line.c).
    const down = new Float32Array(memory.buffer, this.#exports.down_taps(), count)
    for (let k = 0; k < count; k++) down[k] = lowPass[count - 1 - k] as number
    // Up: zeros stuffed between the 8 kHz samples, so output 3m + p sums taps p, p + 3, ... over inputs m, m - 1,
    // ...; times three, the energy the zeros took.
    const phaseTaps = count / FACTOR
    const up = new Float32Array(memory.buffer, this.#exports.up_taps(), count)
    for (let phase = 0; phase < FACTOR; phase++) {
      for (let k = 0; k < phaseTaps; k++) {
        up[phase * phaseTaps + k] = FACTOR * (lowPass[FACTOR * (phaseTaps - 1 - k) + phase] as number)
      }
    }
    this.#exports.taps_written()
    if (band.length !== BAND_SECTIONS) {
      throw new RangeError(`phone line: the band-pass has ${BAND_SECTIONS} sections, not ${band.length}`)
    }
    new Float64Array(memory.buffer, this.#exports.band(), 5 * BAND_SECTIONS).set(
      band.flatMap(({ b0, b1, b2, a1, a2 }) => [b0, b1, b2, a1, a2]),
    )
    this.#exports.set_gain(gain)
    if (codec.length !== 65_536)
      throw new RangeError('phone line: the codec table has one entry per PCM16 value')
    new Int16Array(memory.buffer, this.#exports.codec(), codec.length).set(codec)
    this.#input = new Int16Array(memory.buffer, this.#exports.input_block(), this.blockSamples)
    this.#wide = new Int16Array(
      memory.buffer,
      this.#exports.wide_block(),
      FACTOR * this.#exports.narrow_max(),
    )
  }

  /** `samples` (at most blockSamples) through the line. */
  process(samples: Int16Array): Int16Array {
    if (samples.length > this.blockSamples) {
      throw new RangeError(
        `phone line: ${samples.length} samples in one block (at most ${this.blockSamples})`,
      )
    }
    this.#input.set(samples)
    return this.#wide.subarray(0, FACTOR * this.#exports.line(samples.length))
  }
}
