// Speex resampling (wasm) between the rates other than the phone line's: 24 kHz to 16 kHz for the voice
// activity detector, espeak's 22.05 kHz and an imported call's rate to 24 kHz, a background bed's rate. (The phone
// line's 3:1 conversion has its own filters: effects/phone-line.ts.) Chosen over wavefile's resamplers because it
// is stateful and causal: one resampler kept across chunks gives exactly the samples it gives for the whole buffer
// at once (the voice-activity tests check it with chunks from 1 sample up), which is what frame-safe processing
// needs; wavefile's filters run forward and backward over the whole buffer (spec/audio.md §2-3).
//
// The SIMD build: three to four times faster than the plain one on our machines. Its samples differ from the
// plain build's by at most 1 (float summation order); wasm SIMD128 is deterministic, so a seed still fixes the
// bytes. Quality 5: flat to 3.4 kHz and full alias rejection (q3 already loses 1 dB at 3.4 kHz).
//
// A speex resampler delays its output by a fixed latency (40 samples at 8 kHz for 24k->8k, 120 samples at
// 24 kHz back up): a stream cannot get those samples back, so `StreamingResampler` keeps the delay and says how
// long it is, and `resampleWhole` (a whole buffer, nothing live) removes it.

import createSpeexResampler, { type SpeexResamplerModule } from '@echogarden/speex-resampler-wasm/simd'

const SPEEX_QUALITY = 5

let modulePromise: Promise<SpeexResamplerModule> | undefined

/** The wasm module, instantiated once per process (resamplers share its heap). */
function speexModule(): Promise<SpeexResamplerModule> {
  modulePromise ??= createSpeexResampler()
  return modulePromise
}

/** A resampler for one continuous mono stream. Push chunks in order; call `close()` once at the end. */
export class StreamingResampler {
  readonly inputRateHz: number
  readonly outputRateHz: number
  readonly #speex: SpeexResamplerModule
  readonly #state: number
  readonly #lengths: number
  #inputPointer = 0
  #outputPointer = 0
  #capacity = 0
  #output = new Int16Array(0)
  #closed = false

  private constructor(speex: SpeexResamplerModule, inputRateHz: number, outputRateHz: number) {
    this.#speex = speex
    this.inputRateHz = inputRateHz
    this.outputRateHz = outputRateHz
    const errorPointer = speex._malloc(4)
    this.#state = speex._speex_resampler_init(1, inputRateHz, outputRateHz, SPEEX_QUALITY, errorPointer)
    speex._free(errorPointer)
    if (this.#state === 0) {
      throw new Error(`speex resampler: cannot resample ${inputRateHz} Hz to ${outputRateHz} Hz`)
    }
    this.#lengths = speex._malloc(8)
  }

  static async create(inputRateHz: number, outputRateHz: number): Promise<StreamingResampler> {
    return new StreamingResampler(await speexModule(), inputRateHz, outputRateHz)
  }

  /** Output samples by which this resampler lags its input (at the output rate). */
  get outputLatencySamples(): number {
    return this.#speex._speex_resampler_get_output_latency(this.#state)
  }

  /** Input samples the resampler holds back; feeding this many zeros after the end flushes it. */
  get inputLatencySamples(): number {
    return this.#speex._speex_resampler_get_input_latency(this.#state)
  }

  /** Drop the leading latency from the output (whole-buffer use only: call before the first `process`). */
  skipLatency(): void {
    this.#speex._speex_resampler_skip_zeros(this.#state)
  }

  /**
   * Resample the next chunk; returns the samples it produced (possibly none) as a view of this resampler's own
   * buffer, valid until the next call: copy what must outlive it. Reusing the buffer keeps a live 20 ms stream
   * from allocating an array per frame.
   */
  process(input: Int16Array): Int16Array {
    if (this.#closed) throw new Error('speex resampler: process() after close()')
    const speex = this.#speex
    const outputMax = Math.ceil((input.length * this.outputRateHz) / this.inputRateHz) + 16
    this.#reserve(Math.max(input.length, outputMax))
    speex.HEAP16.set(input, this.#inputPointer >> 1)
    const lengths = this.#lengths >> 2
    speex.HEAPU32[lengths] = input.length
    speex.HEAPU32[lengths + 1] = outputMax
    speex._speex_resampler_process_int(
      this.#state,
      0,
      this.#inputPointer,
      this.#lengths,
      this.#outputPointer,
      this.#lengths + 4,
    )
    const consumed = speex.HEAPU32[lengths] as number
    const produced = speex.HEAPU32[lengths + 1] as number
    if (consumed !== input.length) {
      throw new Error(
        `speex resampler consumed ${consumed} of ${input.length} samples (output buffer too small)`,
      )
    }
    if (this.#output.length < produced)
      this.#output = new Int16Array(Math.max(produced, 2 * this.#output.length))
    const start = this.#outputPointer >> 1
    this.#output.set(speex.HEAP16.subarray(start, start + produced))
    return this.#output.subarray(0, produced)
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    const speex = this.#speex
    speex._speex_resampler_destroy(this.#state)
    speex._free(this.#lengths)
    if (this.#capacity > 0) {
      speex._free(this.#inputPointer)
      speex._free(this.#outputPointer)
    }
  }

  #reserve(samples: number): void {
    if (samples <= this.#capacity) return
    const speex = this.#speex
    if (this.#capacity > 0) {
      speex._free(this.#inputPointer)
      speex._free(this.#outputPointer)
    }
    this.#capacity = Math.max(samples, 4096)
    this.#inputPointer = speex._malloc(this.#capacity * 2)
    this.#outputPointer = speex._malloc(this.#capacity * 2)
  }
}

/**
 * Resample a whole buffer with its latency removed: the output has round(n · out/in) samples and an impulse
 * at input sample i comes back at output sample round(i · out/in).
 */
export async function resampleWhole(
  samples: Int16Array,
  inputRateHz: number,
  outputRateHz: number,
): Promise<Int16Array> {
  if (inputRateHz === outputRateHz) return samples.slice()
  const resampler = await StreamingResampler.create(inputRateHz, outputRateHz)
  try {
    resampler.skipLatency()
    const padded = new Int16Array(samples.length + resampler.inputLatencySamples)
    padded.set(samples)
    const wanted = Math.round((samples.length * outputRateHz) / inputRateHz)
    const produced = resampler.process(padded)
    const out = new Int16Array(wanted)
    out.set(produced.subarray(0, Math.min(wanted, produced.length)))
    return out
  } finally {
    resampler.close()
  }
}
