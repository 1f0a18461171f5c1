// A narrowband phone line: down to 8 kHz, band-pass 300-3,400 Hz, gain ×1.8, G.711 μ-law encode and decode
// (alawmulaw), and back up to the 24 kHz transport rate.
//
// Band-pass: two high-pass and two low-pass Butterworth sections (Q 0.7071), the reference's two-stage
// filters; each edge is -6 dB at its corner and falls 24 dB per octave below 300 Hz. They run at 8 kHz, as a
// phone codec's filters do, after the resampler's own anti-alias filter has removed everything above 4 kHz:
// a third of the work of filtering at 24 kHz, and the low-pass reaches zero at 4 kHz (the 8 kHz Nyquist).
// Resampler: speex (see ../resampler.ts), not the reference's sample-and-hold. Holding each 8 kHz sample for
// three 24 kHz samples leaves images of the voice at 8 kHz ± f, only about 16 dB down at 7 kHz, and the
// decimation folds 4-8 kHz content into the band: a buzz no real phone gateway produces, since gateways
// interpolate with a proper low-pass filter. Speex rejects both, stays frame-safe (its state carries across
// chunks) and costs well under 1/500 of real time both ways. The price is a fixed 10 ms delay through the line
// (speex's latency, 240 samples at 24 kHz), which a stream cannot remove; TELEPHONY_LATENCY_MS reports it.
// Chunk sizes: 24k->8k gives ceil(n/3) samples after n inputs and 8k->24k exactly three per input, so after
// any n input samples at least n output samples exist; the up to two extra ones wait for the next chunk.

import alawmulaw from 'alawmulaw'
import { StreamingResampler } from '../resampler.ts'
import { BiquadCascade, highPass, lowPass } from './biquad.ts'
import type { AudioEffect } from './effect.ts'
import { TELEPHONY_BAND_HZ, TELEPHONY_SAMPLE_RATE_HZ } from './telephony-line.ts'

/** Gain before the codec: brings the band-limited voice up to where μ-law's resolution is spent well. */
export const TELEPHONY_GAIN = 1.8
const BUTTERWORTH_Q = Math.SQRT1_2
/** The speex round trip's delay at quality 5: 40 samples at 8 kHz plus 120 at 24 kHz, i.e. 240 at 24 kHz. */
export const TELEPHONY_LATENCY_MS = 10

let muLawTable: Int16Array | undefined

/**
 * What each PCM16 value (index value + 32768) comes back as through the codec, built once from alawmulaw's own
 * encoder and decoder: one look-up per sample instead of two library calls (a tenth of the telephony's CPU).
 */
function muLawRoundTripTable(): Int16Array {
  if (muLawTable === undefined) {
    const table = new Int16Array(65536)
    for (let value = -32768; value <= 32767; value++) {
      table[value + 32768] = alawmulaw.mulaw.decodeSample(alawmulaw.mulaw.encodeSample(value))
    }
    muLawTable = table
  }
  return muLawTable
}

/** G.711 μ-law encode then decode: what survives the codec (8 bits per sample, logarithmic steps). */
export function muLawRoundTrip(samples: Int16Array): Int16Array {
  return muLawRoundTripInPlace(samples.slice())
}

/** muLawRoundTrip over `samples` itself (the phone line's own 8 kHz buffer: no array per 20 ms frame). */
export function muLawRoundTripInPlace(samples: Int16Array): Int16Array {
  const table = muLawRoundTripTable()
  for (let i = 0; i < samples.length; i++) samples[i] = table[(samples[i] as number) + 32768] as number
  return samples
}

/** The library's own round trip, sample array in, sample array out (the table is tested against it). */
export function muLawRoundTripByLibrary(samples: Int16Array): Int16Array {
  return alawmulaw.mulaw.decode(alawmulaw.mulaw.encode(samples))
}

export class Telephony implements AudioEffect {
  readonly #band: BiquadCascade
  readonly #down: StreamingResampler
  readonly #up: StreamingResampler
  #carry: Int16Array = new Int16Array(8)
  #carryLength = 0

  private constructor(down: StreamingResampler, up: StreamingResampler) {
    const [low, high] = TELEPHONY_BAND_HZ
    const rate = TELEPHONY_SAMPLE_RATE_HZ
    this.#band = new BiquadCascade([
      highPass(low, BUTTERWORTH_Q, rate),
      highPass(low, BUTTERWORTH_Q, rate),
      lowPass(high, BUTTERWORTH_Q, rate),
      lowPass(high, BUTTERWORTH_Q, rate),
    ])
    this.#down = down
    this.#up = up
  }

  static async create(transportRateHz: number): Promise<Telephony> {
    const down = await StreamingResampler.create(transportRateHz, TELEPHONY_SAMPLE_RATE_HZ)
    const up = await StreamingResampler.create(TELEPHONY_SAMPLE_RATE_HZ, transportRateHz)
    return new Telephony(down, up)
  }

  process(samples: Int16Array): void {
    // The down-sampler's own output buffer, ours until its next call: filtered and coded in place.
    const narrow = this.#down.process(samples)
    this.#band.process(narrow, TELEPHONY_GAIN)
    const wide = this.#up.process(muLawRoundTripInPlace(narrow))
    // Output = the samples carried from the last call, then the start of `wide`; the rest of `wide` (at most
    // two samples, see the header) is carried to the next call.
    const carried = this.#carryLength
    if (carried + wide.length < samples.length) {
      throw new Error(
        `telephony: the resamplers produced ${carried + wide.length} samples for ${samples.length} (invariant broken)`,
      )
    }
    const fromCarry = Math.min(carried, samples.length)
    samples.set(this.#carry.subarray(0, fromCarry))
    const fromWide = samples.length - fromCarry
    samples.set(wide.subarray(0, fromWide), fromCarry)
    const rest = wide.subarray(fromWide)
    const keep = carried - fromCarry + rest.length
    if (this.#carry.length < keep) this.#carry = grow(this.#carry, keep)
    this.#carry.copyWithin(0, fromCarry, carried)
    this.#carry.set(rest, carried - fromCarry)
    this.#carryLength = keep
  }

  close(): void {
    this.#down.close()
    this.#up.close()
  }
}

function grow(buffer: Int16Array, size: number): Int16Array {
  const grown = new Int16Array(Math.max(size, 2 * buffer.length))
  grown.set(buffer)
  return grown
}
