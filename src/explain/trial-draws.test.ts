// The trials' draws: trial 1 is the run's own, later trials come from the seed and the trial number only (the
// same seed gives the same draws, another seed others), and a later start moves the caller's audio, its hearing
// and its speech intervals together.
import { describe, expect, test } from 'vitest'
import { durationMs } from '../audio/pcm.ts'
import { recordedCallerSource, syntheticCallerSource } from '../phases/engine/caller-sources.ts'
import type { Scenario } from '../scenarios/index.ts'
import { offsetCallerSource, trialDraws } from './trial-draws.ts'

const RECORDED = { preset: 7, faults: 22 }

describe('trialDraws', () => {
  test('trial 1 is the run’s own draw, whatever the seed', () => {
    for (const seed of [1, 2, -5]) {
      expect(trialDraws(seed, 1, RECORDED, true)).toEqual({
        caller_offset_ms: 0,
        preset_seed: 7,
        fault_seed: 22,
      })
    }
  })

  test('later trials: a function of the seed and the trial only, in whole frames up to 300 ms', () => {
    const draws = (seed: number) =>
      Array.from({ length: 9 }, (_, index) => trialDraws(seed, index + 2, RECORDED, true))
    expect(draws(1)).toEqual(draws(1))
    expect(draws(1)).not.toEqual(draws(2))
    const offsets = draws(1).map((draw) => draw.caller_offset_ms)
    expect(offsets.every((offset) => offset % 20 === 0 && offset >= 0 && offset <= 300)).toBe(true)
    // Nine trials are not all the same draw.
    expect(new Set(offsets).size).toBeGreaterThan(1)
    expect(new Set(draws(1).map((draw) => draw.preset_seed)).size).toBe(9)
  })

  test('nothing to draw stays nothing: no seeds the run had not, no offset where the phase takes none', () => {
    expect(trialDraws(1, 3, { preset: null, faults: null }, false)).toEqual({
      caller_offset_ms: 0,
      preset_seed: null,
      fault_seed: null,
    })
  })
})

describe('offsetCallerSource', () => {
  const scenario = { id: 's', input: { text: 'Hello there.' } } as Scenario

  test('more lead-in: the samples, the hearing and the speech intervals move together', async () => {
    const base = await syntheticCallerSource.prepare(scenario, {})
    const later = await offsetCallerSource(syntheticCallerSource, 140).prepare(scenario, {})
    expect(durationMs(later.samples.length) - durationMs(base.samples.length)).toBeCloseTo(140, 6)
    expect(later.samples.slice(-base.samples.length)).toEqual(base.samples)
    expect(later.hearing).toEqual(
      base.hearing.map((heard) => ({ ...heard, startMs: heard.startMs + 140, endMs: heard.endMs + 140 })),
    )
    expect(later.callerSpeech).toEqual(
      base.callerSpeech?.map((span) => ({ startMs: span.startMs + 140, endMs: span.endMs + 140 })),
    )
    expect(later.text).toBe(base.text)
  })

  test('a recording played later is still the recording a failed row names', () => {
    const take = {
      id: 'take',
      path: 'take.wav',
      resolvedPath: '/data/take.wav',
      condition: 'noisy',
      metadata: {},
    }
    const walk = { ...scenario, input: { ...scenario.input, recordings: [take] } } as unknown as Scenario
    const recorded = recordedCallerSource({ offline: true })
    expect(offsetCallerSource(recorded, 140).recordingOf?.(walk)).toEqual(recorded.recordingOf?.(walk))
    expect(offsetCallerSource(recorded, 140).recordingOf?.(walk)).toMatchObject({
      id: 'take',
      condition: 'noisy',
    })
  })

  test('no offset is the source itself', () => {
    expect(offsetCallerSource(syntheticCallerSource, 0)).toBe(syntheticCallerSource)
  })
})
