import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { rmsDbfs } from './speech-activity.ts'
import {
  setSyntheticSpeechCacheLimit,
  syntheticSpeech,
  syntheticSpeechCacheStats,
  syntheticSpeechDurationMs,
} from './synthetic-voice.ts'

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

  it('gives the samples the per-sample synthesis gave, at every rate (fingerprint from before the speed-up, issue 24)', () => {
    const texts = [
      '',
      'Hi',
      'Hello, Juniper Table.',
      'I would like to book a table for two at eight tonight.',
      'Café — 🍝 for 4?',
      'Could you move my reservation from Friday to Saturday, same time, and add a high chair? '.repeat(6),
    ]
    const hash = createHash('sha256')
    for (const sampleRateHz of [24000, 16000, 8000, 44100]) {
      for (const text of texts) {
        const samples = syntheticSpeech(text, { sampleRateHz })
        hash.update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength))
      }
    }
    // Computed by the code at 2b83358, which synthesised every call afresh.
    expect(hash.digest('hex')).toBe('2bf0208f60e4f99dac8e72092fa00beb1f9bf0bc93b6439a249512ea15dd9645')
  })

  it('synthesises a text once per sample rate and hands each caller its own copy', () => {
    setSyntheticSpeechCacheLimit(8_000_000)
    const first = syntheticSpeech('Table for three, please.')
    const pristine = first.slice()
    first.fill(7)
    const second = syntheticSpeech('Table for three, please.')
    expect(second).toEqual(pristine)
    expect(second.buffer).not.toBe(first.buffer)
    expect(syntheticSpeechCacheStats()).toMatchObject({ entries: 1, samples: pristine.length })
    syntheticSpeech('Table for three, please.', { sampleRateHz: 16000 })
    expect(syntheticSpeechCacheStats().entries).toBe(2)
  })

  it('keeps the cache within its bound, dropping the least recently used text first', () => {
    const previous = setSyntheticSpeechCacheLimit(30_000) // three 300 ms minimum utterances at 24 kHz (7200 each)
    try {
      const a = syntheticSpeech('a')
      syntheticSpeech('b')
      syntheticSpeech('c')
      syntheticSpeech('d')
      expect(syntheticSpeechCacheStats()).toMatchObject({ entries: 4, samples: 4 * a.length })
      syntheticSpeech('a') // most recent again: 'b' is now the oldest
      syntheticSpeech('e')
      expect(syntheticSpeechCacheStats()).toMatchObject({
        keys: ['24000:c', '24000:d', '24000:a', '24000:e'],
        samples: 4 * a.length,
      })
      const stats = syntheticSpeechCacheStats()
      expect(stats.samples).toBeLessThanOrEqual(stats.maxSamples)
      syntheticSpeech('Far longer than the whole cache may hold. '.repeat(20)) // 55 s: never cached
      expect(syntheticSpeechCacheStats().entries).toBe(4)
      expect(syntheticSpeech('a')).toEqual(a)
    } finally {
      setSyntheticSpeechCacheLimit(previous)
    }
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
