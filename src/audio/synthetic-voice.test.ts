import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { rmsDbfs } from './speech-activity.ts'
import { syntheticSpeech, syntheticSpeechDurationMs } from './synthetic-voice.ts'

const sentence = 'I would like to book a table for two at eight tonight.'

function sha256(samples: Int16Array): string {
  return createHash('sha256')
    .update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength))
    .digest('hex')
}

/** Highest normalised autocorrelation for pitch lags between 60 and 400 Hz over one window. */
function periodicity(window: Int16Array, sampleRateHz: number): number {
  let energy = 0
  for (const value of window) energy += value * value
  let best = 0
  for (let lag = Math.floor(sampleRateHz / 400); lag <= Math.ceil(sampleRateHz / 60); lag++) {
    let sum = 0
    for (let i = 0; i + lag < window.length; i++) sum += (window[i] ?? 0) * (window[i + lag] ?? 0)
    best = Math.max(best, sum / energy)
  }
  return best
}

/** Energy of the first difference over the energy of the signal: grows with high-frequency content. */
function brightness(samples: Int16Array): number {
  let signal = 0
  let difference = 0
  for (let i = 1; i < samples.length; i++) {
    const value = samples[i] ?? 0
    signal += value * value
    difference += (value - (samples[i - 1] ?? 0)) ** 2
  }
  return difference / signal
}

describe('syntheticSpeech', () => {
  it('is deterministic bit for bit', () => {
    const first = syntheticSpeech(sentence)
    expect(sha256(syntheticSpeech(sentence))).toBe(sha256(first))
  })

  it('matches the pinned fingerprint (offline fixtures and recorded artifacts rely on these exact samples)', () => {
    // Change this value only together with a deliberate change of the synthesis.
    expect(sha256(syntheticSpeech('Hello, Juniper Table.'))).toBe(
      '52f87959dd89f04825ab7d4f8ecac9f2e74de771feb8eda8f87aab654d8225d1',
    )
  })

  it('differs between texts', () => {
    expect(sha256(syntheticSpeech('Table for two'))).not.toBe(sha256(syntheticSpeech('Table for six')))
  })

  it('lasts about 65 ms per character with a 300 ms minimum', () => {
    expect(syntheticSpeechDurationMs(sentence)).toBe(sentence.length * 65)
    expect(syntheticSpeech(sentence).length).toBe(sentence.length * 65 * 24)
    expect(syntheticSpeech('ok').length).toBe(300 * 24)
    expect(syntheticSpeech('').length).toBe(300 * 24)
    expect(syntheticSpeech(sentence, { sampleRateHz: 16_000 }).length).toBe(sentence.length * 65 * 16)
  })

  it('is loud like speech and never clipped', () => {
    const samples = syntheticSpeech(sentence)
    const peak = samples.reduce((max, value) => Math.max(max, Math.abs(value)), 0)
    expect(peak).toBeLessThanOrEqual(16384)
    expect(peak).toBeGreaterThan(16000)
    const level = rmsDbfs(samples)
    expect(level).toBeGreaterThan(-26)
    expect(level).toBeLessThan(-12)
  })

  it('is voiced: strongly periodic at a speaking pitch in every part of the utterance', () => {
    const samples = syntheticSpeech(sentence)
    const window = 24 * 40
    for (let start = 24 * 100; start + window < samples.length - 24 * 100; start += 24 * 300) {
      expect(periodicity(samples.subarray(start, start + window), 24_000)).toBeGreaterThan(0.6)
    }
  })

  it('is harmonic-rich, unlike a pure tone at the same pitch', () => {
    const pureTone = Int16Array.from({ length: 24_000 }, (_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * 140 * i) / 24000)),
    )
    expect(brightness(syntheticSpeech(sentence))).toBeGreaterThan(20 * brightness(pureTone))
  })

  it('has a syllable-rate amplitude envelope without dropping to silence', () => {
    const samples = syntheticSpeech(sentence)
    const levels: number[] = []
    for (let start = 24 * 50; start + 24 * 50 < samples.length - 24 * 50; start += 24 * 50) {
      levels.push(rmsDbfs(samples.subarray(start, start + 24 * 50)))
    }
    expect(Math.max(...levels) - Math.min(...levels)).toBeGreaterThan(6)
    expect(Math.min(...levels)).toBeGreaterThan(-40)
  })

  it('starts and ends without a click', () => {
    const samples = syntheticSpeech(sentence)
    expect(Math.abs(samples[0] ?? 1)).toBe(0)
    expect(Math.abs(samples.at(-1) ?? 1)).toBe(0)
  })

  it('refuses an unusable sample rate', () => {
    expect(() => syntheticSpeech('hi', { sampleRateHz: 100 })).toThrow(
      /sampleRateHz must be an integer >= 8000/,
    )
  })
})
