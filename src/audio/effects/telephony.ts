// A narrowband phone line: down to 8 kHz, band-pass 300-3,400 Hz, gain ×1.8, G.711 μ-law encode and decode
// (alawmulaw), and back up to the 24 kHz transport rate.
//
// Band-pass: two high-pass and two low-pass Butterworth sections (Q 0.7071), the reference's two-stage
// filters; each edge is -6 dB at its corner and falls 24 dB per octave below 300 Hz. They run at 8 kHz, as a
// phone codec's filters do, after the resampler's own anti-alias filter has removed everything above 4 kHz:
// a third of the work of filtering at 24 kHz, and the low-pass reaches zero at 4 kHz (the 8 kHz Nyquist).
// Resampler: a polyphase FIR pair made for this 3:1 line (phone-line.ts), not the reference's
// sample-and-hold. Holding each 8 kHz sample for three 24 kHz samples leaves images of the voice at 8 kHz ± f,
// only about 16 dB down at 7 kHz, and the decimation folds 4-8 kHz content into the band: a buzz no real phone
// gateway produces, since gateways interpolate with a proper low-pass filter. The FIR pair rejects both (60 dB),
// keeps its state across chunks (frame-safe) and delays the line by 95 samples at 24 kHz (3.96 ms), which a
// stream cannot remove; TELEPHONY_LATENCY_MS reports it. (Speex at quality 5, used before, delayed the line 10 ms
// and took about three times the CPU.)
// Chunk sizes: 24k->8k gives ceil(n/3) samples after n inputs and 8k->24k exactly three per input, so after
// any n input samples at least n output samples exist; the up to two extra ones wait for the next chunk.

import alawmulaw from 'alawmulaw'
import { highPass, lowPass } from './biquad.ts'
import type { AudioEffect } from './effect.ts'
import { PHONE_LINE_DELAY_SAMPLES, PHONE_TRANSPORT_RATE_HZ, PhoneLine } from './phone-line.ts'
import { TELEPHONY_BAND_HZ, TELEPHONY_SAMPLE_RATE_HZ } from './telephony-line.ts'

/** Gain before the codec: brings the band-limited voice up to where μ-law's resolution is spent well. */
export const TELEPHONY_GAIN = 1.8
const BUTTERWORTH_Q = Math.SQRT1_2
/** After n inputs the line has made 3 * ceil(n / 3) samples: at most two more than it was given. */
const MAX_CARRY = 2
/** The resampler round trip's delay: 95 samples at 24 kHz, 3.96 ms, given in whole ms as effect metadata is. */
export const TELEPHONY_LATENCY_MS = Math.round((PHONE_LINE_DELAY_SAMPLES * 1000) / PHONE_TRANSPORT_RATE_HZ)

let muLawTable: Int16Array | undefined

/**
 * What each PCM16 value (index value + 32768) comes back as through the codec, built once from alawmulaw's own
 * encoder and decoder: one look-up per sample instead of two library calls. The phone line (phone-line.ts) runs
 * it in WebAssembly; muLawRoundTrip is the same table in TypeScript.
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
  const table = muLawRoundTripTable()
  return samples.map((sample) => table[sample + 32768] as number)
}

/** The library's own round trip, sample array in, sample array out (the table is tested against it). */
export function muLawRoundTripByLibrary(samples: Int16Array): Int16Array {
  return alawmulaw.mulaw.decode(alawmulaw.mulaw.encode(samples))
}

export class Telephony implements AudioEffect {
  readonly #line: PhoneLine
  /** The line's samples made past the input so far, for the next call (at most two: see the header). */
  readonly #carry = new Int16Array(MAX_CARRY)
  #carryLength = 0

  private constructor() {
    const [low, high] = TELEPHONY_BAND_HZ
    const rate = TELEPHONY_SAMPLE_RATE_HZ
    const band = [
      highPass(low, BUTTERWORTH_Q, rate),
      highPass(low, BUTTERWORTH_Q, rate),
      lowPass(high, BUTTERWORTH_Q, rate),
      lowPass(high, BUTTERWORTH_Q, rate),
    ]
    this.#line = new PhoneLine(band, TELEPHONY_GAIN, muLawRoundTripTable())
  }

  static async create(transportRateHz: number): Promise<Telephony> {
    if (transportRateHz !== PHONE_TRANSPORT_RATE_HZ) {
      throw new RangeError(
        `telephony: the phone line converts ${PHONE_TRANSPORT_RATE_HZ} Hz audio, not ${transportRateHz} Hz`,
      )
    }
    return new Telephony()
  }

  process(samples: Int16Array): void {
    // The line takes a bounded block at a time; its invariants hold block by block.
    const block = this.#line.blockSamples
    if (samples.length <= block) {
      this.#processBlock(samples)
      return
    }
    for (let start = 0; start < samples.length; start += block) {
      this.#processBlock(samples.subarray(start, Math.min(samples.length, start + block)))
    }
  }

  #processBlock(samples: Int16Array): void {
    // The line's own buffer, ours until its next call.
    const wide = this.#line.process(samples)
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
    if (keep > MAX_CARRY) {
      throw new Error(
        `telephony: the line left ${keep} samples over (at most ${MAX_CARRY}; invariant broken)`,
      )
    }
    this.#carry.copyWithin(0, fromCarry, carried)
    this.#carry.set(rest, carried - fromCarry)
    this.#carryLength = keep
  }

  /** Nothing to release: the line's state is its module instance's memory, collected with it. */
  close(): void {}
}
