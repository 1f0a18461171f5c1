import { describe, expect, it } from 'vitest'
import { callerRequest, inChunks, rms, sameBytes, tone } from '../signals.test-helpers.ts'
import { muLawRoundTrip, TELEPHONY_GAIN, TELEPHONY_LATENCY_MS, Telephony } from './telephony.ts'

async function phoneLine(
  samples: Int16Array,
  sizes: readonly number[] = [samples.length],
): Promise<Int16Array> {
  const line = await Telephony.create(24000)
  try {
    return inChunks(samples, sizes, (chunk) => {
      const copy = chunk.slice()
      line.process(copy)
      return copy
    })
  } finally {
    line.close()
  }
}

/** Output level over input level for a steady tone, skipping the first 100 ms (filters settling). */
async function toneGain(hz: number): Promise<number> {
  const input = tone(hz, 1000)
  const output = await phoneLine(input)
  return rms(output, 2400) / rms(input, 2400)
}

describe('Telephony', () => {
  it('passes 1 kHz at the codec gain and attenuates 80 Hz and 7 kHz by more than 5x against it', async () => {
    const at1k = await toneGain(1000)
    expect(at1k).toBeCloseTo(TELEPHONY_GAIN, 1)
    expect(at1k / (await toneGain(80))).toBeGreaterThan(5)
    expect(at1k / (await toneGain(7000))).toBeGreaterThan(5)
  })

  it('puts the band edges at 300 and 3400 Hz (-6 dB there, two sections per edge)', async () => {
    const at1k = await toneGain(1000)
    expect((await toneGain(300)) / at1k).toBeCloseTo(0.5, 1)
    expect((await toneGain(3400)) / at1k).toBeCloseTo(0.5, 1)
    expect((await toneGain(4500)) / at1k).toBeLessThan(0.01)
  })

  it('delays the signal by its fixed latency', async () => {
    const impulse = new Int16Array(4800)
    impulse.fill(6000, 2400, 2424) // a 1 ms click, inside the band once filtered
    const output = await phoneLine(impulse)
    let peakAt = 0
    for (let i = 0; i < output.length; i++) {
      if (Math.abs(output[i] as number) > Math.abs(output[peakAt] as number)) peakAt = i
    }
    const delayMs = (peakAt - 2412) / 24
    expect(Math.abs(delayMs - TELEPHONY_LATENCY_MS)).toBeLessThan(1.5)
  })

  it('gives identical bytes for the whole buffer and for 20 ms frames or odd chunk sizes', async () => {
    const speech = await callerRequest()
    const whole = await phoneLine(speech)
    expect(sameBytes(whole, await phoneLine(speech, [480]))).toBe(true)
    expect(sameBytes(whole, await phoneLine(speech, [1, 7, 2, 479, 1441, 3]))).toBe(true)
  })

  it('keeps real speech intelligible-looking: output RMS near input RMS times the in-band gain', async () => {
    const speech = await callerRequest()
    const ratio = rms(await phoneLine(speech)) / rms(speech)
    expect(ratio).toBeGreaterThan(0.8)
    expect(ratio).toBeLessThan(TELEPHONY_GAIN)
  })
})

describe('muLawRoundTrip (G.711)', () => {
  // G.711 μ-law: |x| + 132 falls in a segment [2^(k+7), 2^(k+8)) quantized in steps of 2^(k+3), and the decoder
  // returns the step's middle, so the error is at most 2^(k+2) <= (|x| + 132) / 32. Above the codec's clip
  // level (32635) the input saturates.
  it('errs by at most half a segment step, (|x| + 132) / 32, over the whole PCM16 range', () => {
    const all = new Int16Array(65536)
    for (let i = 0; i < all.length; i++) all[i] = i - 32768
    const back = muLawRoundTrip(all)
    let violations = 0
    let largest = 0
    for (let i = 0; i < all.length; i++) {
      const x = all[i] as number
      if (Math.abs(x) > 32635) continue
      const error = Math.abs((back[i] as number) - x)
      if (error > (Math.abs(x) + 132) / 32) violations++
      largest = Math.max(largest, error)
    }
    expect(violations).toBe(0)
    expect(back[32768]).toBe(0)
    expect(largest).toBe(512) // the top segment's half step: it is lossy, 8 bits per sample
  })

  it('keeps real speech at a G.711 signal-to-noise ratio above 30 dB', async () => {
    const speech = await callerRequest()
    const back = muLawRoundTrip(speech)
    let signal = 0
    let noise = 0
    for (let i = 0; i < speech.length; i++) {
      signal += (speech[i] as number) ** 2
      noise += ((back[i] as number) - (speech[i] as number)) ** 2
    }
    expect(10 * Math.log10(signal / noise)).toBeGreaterThan(30)
  })
})
