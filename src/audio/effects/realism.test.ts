import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import wavefile from 'wavefile'
import { callerRequest, rms, sameBytes, tone } from '../signals.test-helpers.ts'
import { detectSpeech } from '../speech-activity.ts'
import { encodeMonoWav } from '../wav.ts'
import { AudioRealismError } from './errors.ts'
import { AudioRealismMetadata } from './metadata.ts'
import { CONDITIONS } from './presets.ts'
import { applyRealism, RealismProcessor } from './realism.ts'

const { WaveFile } = wavefile

const totalMs = (intervals: readonly { startMs: number; endMs: number }[]) =>
  intervals.reduce((sum, { startMs, endMs }) => sum + endMs - startMs, 0)

let speech: Int16Array
let folder = ''
beforeAll(async () => {
  speech = await callerRequest()
  folder = await mkdtemp(path.join(tmpdir(), 'live-evals-realism-'))
})
afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

describe('applyRealism', () => {
  it.each(CONDITIONS)(
    '%s: whole buffer, 200 ms effect frames, 20 ms frames and 7 ms chunks give identical bytes',
    async (condition) => {
      const whole = await applyRealism(speech, { condition, seed: 41, chunkMs: 60_000 })
      const framed = await applyRealism(speech, { condition, seed: 41 }) // one effect frame (200 ms) per chunk
      const live = await applyRealism(speech, { condition, seed: 41, chunkMs: 20 })
      const odd = await applyRealism(speech, { condition, seed: 41, chunkMs: 7 })
      expect(whole.samples.length).toBe(speech.length)
      expect(sameBytes(whole.samples, framed.samples)).toBe(true)
      expect(sameBytes(whole.samples, live.samples)).toBe(true)
      expect(sameBytes(whole.samples, odd.samples)).toBe(true)
      // As in the reference, a recording conditioned frame by frame counts each frame as a tick.
      expect(framed.metadata.observations.processed_ticks).toBe(Math.ceil(speech.length / 4800))
      expect(framed.metadata.observations.processed_frames).toBe(Math.ceil(speech.length / 4800))
      expect({ ...framed.metadata.observations, processed_ticks: 1 }).toEqual({
        ...whole.metadata.observations,
        lost_ticks: framed.metadata.observations.lost_ticks,
      })
      expect(live.metadata.observations.processed_ticks).toBe(Math.ceil(speech.length / 480))
    },
  )

  it('packet_loss drops whole effect frames: 400 ms gaps at the 200 ms default, 40 ms at frameMs 20', async () => {
    const busy = Int16Array.from({ length: 24000 * 60 }, (_, i) => 1000 + (i % 97))
    const gapsMs = async (frameMs?: number) => {
      const { samples, metadata } = await applyRealism(busy, {
        condition: 'packet_loss',
        seed: 41,
        ...(frameMs === undefined ? {} : { frameMs }),
      })
      const gaps: number[] = []
      let run = 0
      for (let i = 0; i <= samples.length; i++) {
        if (i < samples.length && samples[i] === 0) run++
        else if (run > 0) {
          if (i < samples.length) gaps.push(run / 24) // a gap cut by the end is left out
          run = 0
        }
      }
      return { gaps, metadata }
    }
    const byDefault = await gapsMs()
    expect(byDefault.gaps.length).toBeGreaterThan(10)
    expect(byDefault.gaps.every((ms) => ms % 400 === 0)).toBe(true)
    expect(byDefault.metadata.observations.processed_frames).toBe(300)
    const silencedMs = byDefault.gaps.reduce((sum, ms) => sum + ms, 0)
    expect(silencedMs).toBeLessThanOrEqual(byDefault.metadata.observations.lost_frames * 200)
    const transport = await gapsMs(20)
    expect(transport.gaps.every((ms) => ms % 40 === 0)).toBe(true)
    expect(Math.min(...transport.gaps)).toBe(40)
  })

  it('processInto gives what process gives, into a caller array or in place, and refuses a wrong length', async () => {
    const speech = await callerRequest()
    const chunks = (options: { condition: string; seed: number }) => RealismProcessor.create(options)
    const [copying, into, inPlace] = await Promise.all([
      chunks({ condition: 'realistic', seed: 5 }),
      chunks({ condition: 'realistic', seed: 5 }),
      chunks({ condition: 'realistic', seed: 5 }),
    ])
    try {
      for (let start = 0; start < speech.length; start += 480) {
        const chunk = speech.subarray(start, Math.min(speech.length, start + 480))
        const expected = copying.process(chunk)
        const target = new Int16Array(chunk.length)
        expect(sameBytes(into.processInto(chunk, target), expected)).toBe(true)
        const own = chunk.slice()
        expect(sameBytes(inPlace.processInto(own, own), expected)).toBe(true)
      }
      expect(() => into.processInto(new Int16Array(4), new Int16Array(5))).toThrow(/5 samples for 4/)
    } finally {
      for (const processor of [copying, into, inPlace]) processor.close()
    }
  })

  it('refuses an effect frame that is not a whole number of ms, 1 or more', async () => {
    for (const frameMs of [0, 2.5, -20]) {
      await expect(applyRealism(speech, { condition: 'packet_loss', seed: 0, frameMs })).rejects.toThrow(
        /effect frame must be a whole number of ms/,
      )
    }
  })

  it.each(CONDITIONS.filter((condition) => condition !== 'clean'))(
    '%s changes the recording',
    async (condition) => {
      const { samples } = await applyRealism(speech, { condition, seed: 1 })
      expect(sameBytes(samples, speech)).toBe(false)
    },
  )

  it('leaves a clean recording byte for byte as it was', async () => {
    expect(sameBytes((await applyRealism(speech, { condition: 'clean', seed: 9 })).samples, speech)).toBe(
      true,
    )
  })

  it.each(['noisy', 'packet_loss', 'realistic'])(
    '%s: same seed same bytes, another seed other bytes',
    async (c) => {
      const a = await applyRealism(speech, { condition: c, seed: 41 })
      const b = await applyRealism(speech, { condition: c, seed: 41 })
      const other = await applyRealism(speech, { condition: c, seed: 42 })
      expect(sameBytes(a.samples, b.samples)).toBe(true)
      expect(sameBytes(a.samples, other.samples)).toBe(false)
    },
  )

  it('returns the §5 metadata block for realistic, inactive effects null', async () => {
    const { metadata } = await applyRealism(speech, { condition: 'realistic', seed: 44 }) // 200 ms frames
    expect(AudioRealismMetadata.parse(metadata)).toEqual(metadata)
    expect(metadata).toEqual({
      preset: 'realistic',
      condition: 'realistic',
      seed: 44,
      sample_rate: 24000,
      effects: {
        telephony: true,
        telephony_sample_rate_hz: 8000,
        telephony_band_hz: [300, 3400],
        telephony_codec: 'g711_mulaw',
        noise_rms: 500,
        background_speech: 'bundled:background-conversation.wav',
        background_gain: 0.4,
        echo_delay_ms: 120,
        echo_decay: 0.25,
        packet_loss_rate: 0.04,
        packet_loss_burst: 1,
        cough_every_ms: 3200,
        non_directed_every_ms: 4600,
      },
      background_provenance: 'bundled_synthetic_speech',
      observations: {
        processed_ticks: 37,
        processed_frames: 37,
        lost_ticks: 3, // seed 44's draws: 3 of 37 frames (the model's long-run share is 4 %)
        lost_frames: 3,
        vocal_tic_events: 2,
        non_directed_events: 1,
      },
    })
  })

  it('returns inactive effects as null and packet loss as rate 0, burst 1 for clean', async () => {
    const { metadata } = await applyRealism(speech, { condition: 'clean', seed: 0 })
    expect(metadata.effects).toEqual({
      telephony: false,
      telephony_sample_rate_hz: null,
      telephony_band_hz: null,
      telephony_codec: null,
      noise_rms: null,
      background_speech: null,
      background_gain: null,
      echo_delay_ms: null,
      echo_decay: null,
      packet_loss_rate: 0,
      packet_loss_burst: 1,
      cough_every_ms: null,
      non_directed_every_ms: null,
    })
    expect(metadata.background_provenance).toBeNull()
  })

  it('never counts background or non-directed speech as caller speech', async () => {
    const clean = detectSpeech(speech)
    expect(clean).toHaveLength(2)
    for (const condition of ['background_speech', 'realistic']) {
      const result = await applyRealism(speech, {
        condition,
        seed: 3,
        overrides: { non_directed_every_ms: 700 },
      })
      const shift = result.latencyMs
      expect(result.callerSpeechIntervals).toEqual(
        clean.map(({ startMs, endMs }) => ({ startMs: startMs + shift, endMs: endMs + shift })),
      )
      // The processed audio has other speech in it: measured there, the caller would seem to talk throughout.
      expect(totalMs(detectSpeech(result.samples))).toBeGreaterThan(totalMs(clean) + 1000)
    }
  })

  it('mixes non-directed speech into silence, yet reports no caller speech there', async () => {
    const quiet = new Int16Array(24000 * 5)
    const result = await applyRealism(quiet, {
      condition: 'clean',
      seed: 0,
      overrides: { non_directed_every_ms: 2000 },
    })
    expect(result.metadata.observations.non_directed_events).toBe(2)
    expect(detectSpeech(result.samples)).toHaveLength(2)
    expect(result.callerSpeechIntervals).toEqual([])
  })

  it('mixes the bundled conversation at its gain: peak 6000 × 0.65 on silence', async () => {
    const result = await applyRealism(new Int16Array(24000 * 40), { condition: 'background_speech', seed: 0 })
    let peak = 0
    for (const value of result.samples) peak = Math.max(peak, Math.abs(value))
    expect(peak).toBe(Math.round(6000 * 0.65))
    expect(rms(result.samples)).toBeGreaterThan(300)
  })

  it('takes a stereo 16 kHz background file, averaged, resampled and peak-normalized', async () => {
    const file = path.join(folder, 'cafe-stereo-16k.wav')
    const left = tone(440, 1000, 20000).filter((_, i) => i % 3 !== 2) // 16000 samples: 1 s at 16 kHz
    const wav = new WaveFile()
    wav.fromScratch(2, 16000, '16', [left, left.map((value) => -value / 2)])
    await writeFile(file, wav.toBuffer())
    const result = await applyRealism(new Int16Array(24000), {
      condition: 'clean',
      seed: 0,
      overrides: { background_speech: 'cafe-stereo-16k.wav', background_gain: 1 },
      baseDirectory: folder,
    })
    expect(result.metadata.background_provenance).toBe('user_recording')
    expect(result.metadata.effects.background_speech).toBe('cafe-stereo-16k.wav')
    let peak = 0
    for (const value of result.samples) peak = Math.max(peak, Math.abs(value))
    expect(peak).toBe(6000)
  })

  it('names a missing or unusable background file', async () => {
    const missing = applyRealism(speech, {
      condition: 'noisy',
      seed: 0,
      overrides: { background_speech: 'nope.wav' },
      baseDirectory: folder,
    })
    await expect(missing).rejects.toThrow('Background speech file nope.wav does not exist.')
    const eightBit = path.join(folder, 'eight.wav')
    const wav = new WaveFile()
    wav.fromScratch(1, 24000, '8', new Uint8Array(100).fill(128))
    await writeFile(eightBit, wav.toBuffer())
    await expect(
      applyRealism(speech, { condition: 'clean', seed: 0, overrides: { background_speech: eightBit } }),
    ).rejects.toThrow(`Background speech file ${eightBit} must be 16-bit PCM`)
    const truncated = path.join(folder, 'cut.wav')
    await writeFile(truncated, encodeMonoWav(tone(300, 100)).subarray(0, 1000))
    await expect(
      applyRealism(speech, { condition: 'clean', seed: 0, overrides: { background_speech: truncated } }),
    ).rejects.toThrow(/cut\.wav is truncated/)
    const silent = path.join(folder, 'silent.wav')
    await writeFile(silent, encodeMonoWav(new Int16Array(100)))
    await expect(
      applyRealism(speech, { condition: 'clean', seed: 0, overrides: { background_speech: silent } }),
    ).rejects.toThrow(/silent\.wav is digital silence/)
  })

  it('refuses an unknown condition, a bad seed and a bad override before processing', async () => {
    await expect(applyRealism(speech, { condition: 'studio', seed: 0 })).rejects.toThrow(
      /valid conditions are clean/,
    )
    for (const seed of [-1, 1.5, 2 ** 32]) {
      await expect(applyRealism(speech, { condition: 'clean', seed })).rejects.toThrow(AudioRealismError)
    }
    await expect(
      applyRealism(speech, { condition: 'echo', seed: 0, overrides: { echo_decay: 2 } }),
    ).rejects.toThrow(/echo_decay/)
  })
})
