// The phone line's rate filters: the design's response from its taps, and what the running line (WebAssembly)
// does to tones a phone cannot carry, going down (aliases) and coming back up (images). telephony.test.ts holds
// the band edges, the gain, the delay and the chunking.
import { describe, expect, it } from 'vitest'
import { rms, tone } from '../signals.test-helpers.ts'
import { PHONE_LINE_TAPS, PHONE_TRANSPORT_RATE_HZ, phoneLineLowPass } from './phone-line.ts'
import { Telephony } from './telephony.ts'

/** The filter's gain at `hz`, in dB, from its taps. */
function responseDb(taps: Float64Array, hz: number): number {
  let re = 0
  let im = 0
  for (let k = 0; k < taps.length; k++) {
    const angle = (2 * Math.PI * hz * k) / PHONE_TRANSPORT_RATE_HZ
    re += (taps[k] as number) * Math.cos(angle)
    im -= (taps[k] as number) * Math.sin(angle)
  }
  return 20 * Math.log10(Math.hypot(re, im))
}

/** Power at `hz` over a stretch of samples (Goertzel), for one frequency out of a signal holding others. */
function powerAt(samples: Int16Array, hz: number, from: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / PHONE_TRANSPORT_RATE_HZ)
  let previous = 0
  let before = 0
  for (let i = from; i < samples.length; i++) {
    const next = (samples[i] as number) + coefficient * previous - before
    before = previous
    previous = next
  }
  return previous * previous + before * before - coefficient * previous * before
}

async function throughLine(input: Int16Array): Promise<Int16Array> {
  const line = await Telephony.create(PHONE_TRANSPORT_RATE_HZ)
  const output = input.slice()
  line.process(output)
  line.close()
  return output
}

describe('the phone line’s rate filter (design)', () => {
  const taps = phoneLineLowPass()

  it('is linear phase with unity gain at DC: symmetric taps that sum to one', () => {
    expect(taps).toHaveLength(PHONE_LINE_TAPS)
    for (let k = 0; k < PHONE_LINE_TAPS; k++) {
      expect(taps[k]).toBeCloseTo(taps[PHONE_LINE_TAPS - 1 - k] as number, 15)
    }
    expect(taps.reduce((sum, tap) => sum + tap, 0)).toBeCloseTo(1, 12)
  })

  it('is flat within 0.1 dB up to 3.4 kHz and at least 60 dB down from 4.4 kHz to the 12 kHz Nyquist', () => {
    for (let hz = 0; hz <= 3400; hz += 10)
      expect(Math.abs(responseDb(taps, hz)), `${hz} Hz`).toBeLessThan(0.1)
    for (let hz = 4400; hz <= 12_000; hz += 10) expect(responseDb(taps, hz), `${hz} Hz`).toBeLessThan(-60)
  })
})

describe('the running phone line (WebAssembly)', () => {
  // Half a second in, so the filters have settled.
  const SETTLED = PHONE_TRANSPORT_RATE_HZ / 2

  it('lets no tone the 8 kHz line cannot carry fold into the band: 50 dB under 1 kHz at every one tried', async () => {
    const reference = rms(await throughLine(tone(1000, 1000, 8000)), SETTLED)
    for (const hz of [4700, 5500, 7000, 9000, 11_000]) {
      const folded = rms(await throughLine(tone(hz, 1000, 8000)), SETTLED)
      expect(20 * Math.log10(Math.max(folded, 1e-9) / reference), `${hz} Hz`).toBeLessThan(-50)
    }
  })

  it('leaves no image of a voice-band tone above the band on the way up: 8 kHz minus 3 kHz, 55 dB down', async () => {
    const output = await throughLine(tone(3000, 1000, 8000))
    const tonePower = powerAt(output, 3000, SETTLED)
    const imagePower = powerAt(output, 5000, SETTLED)
    expect(10 * Math.log10(imagePower / tonePower)).toBeLessThan(-55)
  })
})
