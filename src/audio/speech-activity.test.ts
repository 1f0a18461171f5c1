import { describe, expect, it } from 'vitest'
import { concatPcm16, silence } from './pcm.ts'
import { DEFAULT_SPEECH_ACTIVITY, detectSpeech, rmsDbfs, SpeechActivityDetector } from './speech-activity.ts'
import { syntheticSpeech, syntheticSpeechDurationMs } from './synthetic-voice.ts'

/** A steady 200 Hz tone whose RMS is `dbfs`. */
function toneAt(dbfs: number, ms: number): Int16Array {
  const amplitude = Math.SQRT2 * 32768 * 10 ** (dbfs / 20)
  return Int16Array.from({ length: ms * 24 }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * 200 * i) / 24000)),
  )
}

/** Seeded uniform white noise with the given RMS in PCM16 units. */
function noise(rms: number, ms: number, seed = 7): Int16Array {
  let state = seed
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 4294967296
  }
  // Uniform on [-a, a] has RMS a / sqrt(3).
  const a = rms * Math.sqrt(3)
  return Int16Array.from({ length: ms * 24 }, () => Math.round((next() * 2 - 1) * a))
}

describe('rmsDbfs', () => {
  it('measures level relative to full scale', () => {
    expect(rmsDbfs(Int16Array.of(-32768, -32768))).toBeCloseTo(0, 6)
    expect(rmsDbfs(toneAt(-20, 100))).toBeCloseTo(-20, 1)
    expect(rmsDbfs(new Int16Array(10))).toBe(Number.NEGATIVE_INFINITY)
  })
})

describe('detectSpeech', () => {
  it('finds synthetic speech between stretches of silence', () => {
    const text = 'I would like a table for four at seven tonight, please.'
    const speechMs = syntheticSpeechDurationMs(text)
    const audio = concatPcm16([silence(500), syntheticSpeech(text), silence(700)])
    const intervals = detectSpeech(audio)
    expect(intervals).toHaveLength(1)
    const [interval] = intervals
    expect(interval?.startMs).toBeGreaterThanOrEqual(500)
    expect(interval?.startMs).toBeLessThanOrEqual(530)
    expect(interval?.endMs).toBeGreaterThanOrEqual(500 + speechMs - 30)
    // Frame granularity (10 ms): the frame holding the last voiced samples counts whole.
    expect(interval?.endMs).toBeLessThanOrEqual(500 + speechMs + 10)
  })

  it('finds the shortest synthetic utterance', () => {
    expect(detectSpeech(syntheticSpeech('Hi'))).toHaveLength(1)
  })

  it('ignores digital silence and low noise', () => {
    expect(detectSpeech(silence(2000))).toEqual([])
    expect(detectSpeech(noise(60, 3000))).toEqual([]) // about -55 dBFS: a quiet line
    expect(detectSpeech(noise(150, 3000))).toEqual([]) // about -47 dBFS: below the onset threshold
  })

  it('finds speech over low noise', () => {
    const speech = syntheticSpeech('Can I change my booking?')
    const mixed = concatPcm16([noise(60, 400), speech, noise(60, 400)])
    const bed = noise(60, mixed.length / 24, 11)
    for (let i = 400 * 24; i < 400 * 24 + speech.length; i++) mixed[i] = (mixed[i] ?? 0) + (bed[i] ?? 0)
    expect(detectSpeech(mixed)).toHaveLength(1)
  })

  it('bridges pauses shorter than minSilenceMs and splits at longer ones', () => {
    const word = toneAt(-20, 300)
    expect(detectSpeech(concatPcm16([word, silence(150), word]))).toEqual([{ startMs: 0, endMs: 750 }])
    expect(detectSpeech(concatPcm16([word, silence(250), word]))).toEqual([
      { startMs: 0, endMs: 300 },
      { startMs: 550, endMs: 850 },
    ])
  })

  it('ends an interval on its last voiced frame, not after the hangover', () => {
    expect(detectSpeech(concatPcm16([silence(100), toneAt(-20, 400), silence(1000)]))).toEqual([
      { startMs: 100, endMs: 500 },
    ])
  })

  it('uses hysteresis: a level between release and onset continues speech but cannot start it', () => {
    const between = -46
    expect(detectSpeech(toneAt(between, 1000))).toEqual([])
    expect(detectSpeech(concatPcm16([toneAt(-20, 200), toneAt(between, 800)]))).toEqual([
      { startMs: 0, endMs: 1000 },
    ])
  })

  it('drops bursts shorter than minSpeechMs', () => {
    expect(detectSpeech(concatPcm16([silence(300), toneAt(-10, 40), silence(300)]))).toEqual([])
    expect(detectSpeech(concatPcm16([silence(300), toneAt(-10, 80), silence(300)]))).toEqual([
      { startMs: 300, endMs: 380 },
    ])
  })

  it('reports times on the caller clock with originMs', () => {
    expect(detectSpeech(toneAt(-20, 200), { originMs: 5000 })).toEqual([{ startMs: 5000, endMs: 5200 }])
  })

  it('refuses a release threshold above the onset threshold', () => {
    expect(() => detectSpeech(silence(10), { onsetDbfs: -50, releaseDbfs: -40 })).toThrow(
      /must not be above onsetDbfs/,
    )
  })

  it('uses the reference toolkit voiced threshold (RMS 220) for onset', () => {
    expect(DEFAULT_SPEECH_ACTIVITY.onsetDbfs).toBeCloseTo(20 * Math.log10(220 / 32768), 1)
  })
})

describe('SpeechActivityDetector (streaming)', () => {
  it('gives the same intervals whatever the chunk sizes', () => {
    const audio = concatPcm16([
      silence(330),
      syntheticSpeech('Table for two.'),
      silence(410),
      syntheticSpeech('Thanks!'),
      silence(90),
    ])
    const whole = detectSpeech(audio)
    const detector = new SpeechActivityDetector()
    const sizes = [1, 7, 480, 239, 1000, 3]
    let offset = 0
    for (let i = 0; offset < audio.length; i++) {
      const size = sizes[i % sizes.length] ?? 1
      detector.push(audio.subarray(offset, offset + size))
      offset += size
    }
    expect(detector.finish()).toEqual(whole)
    expect(whole).toHaveLength(2)
  })

  it('reports intervals as they close and speech under way once confirmed', () => {
    const detector = new SpeechActivityDetector()
    expect(detector.push(toneAt(-20, 40))).toEqual([])
    expect(detector.speakingSinceMs).toBeNull() // 40 ms is not yet minSpeechMs
    detector.push(toneAt(-20, 60))
    expect(detector.speakingSinceMs).toBe(0)
    expect(detector.push(silence(250))).toEqual([{ startMs: 0, endMs: 100 }])
    expect(detector.speakingSinceMs).toBeNull()
    expect(() => {
      detector.finish()
      detector.push(silence(10))
    }).toThrow(/after finish/)
  })
})
