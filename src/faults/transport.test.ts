// The audio-transport faults on synthetic audio: a 440 Hz tone is "voice", zeros are silence, one sample is 1/24 ms.
import { describe, expect, test } from 'vitest'
import type { FaultProfile } from '../config/fault-profiles.ts'
import { AudioRelay } from '../phases/engine/media-clock.ts'
import { SessionFaults } from './session.ts'
import { DownlinkFaults, requestUtterances, UplinkLoss } from './transport.ts'

const RATE = 24_000
const samples = (ms: number) => (ms * RATE) / 1000
function tone(ms: number): Int16Array {
  const out = new Int16Array(samples(ms))
  for (let index = 0; index < out.length; index++)
    out[index] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / RATE))
  return out
}
const voicedMs = (audio: Int16Array, fromMs: number, toMs: number) =>
  audio.subarray(samples(fromMs), samples(toMs)).some((sample) => sample !== 0)

const faultsOf = (rules: FaultProfile['rules']) => new SessionFaults({ name: 'p', seed: 1, rules }, 'setting')

describe('uplink_loss', () => {
  const profile = faultsOf([{ kind: 'uplink_loss', rate: 1, calls: [0], after_ms: 1_800, duration_ms: 800 }])
  const opening = {
    text: "Hi, I'd like to book a table under Rivera on August 14 at 7 p.m. for two.",
    startMs: 200,
    endMs: 4_945,
  }

  test('offline: the words inside the burst are not heard, the burst is silenced, and it is recorded', () => {
    const loss = new UplinkLoss(profile)
    const later = { text: 'Thanks, bye.', startMs: 6_000, endMs: 7_000 }
    expect(loss.hear([opening, later])).toEqual([
      { ...opening, text: "Hi, I'd like to book a table on August 14 at 7 p.m. for two." },
      later, // calls: [0], only the first utterance
    ])
    expect(profile.events()).toEqual([
      expect.objectContaining({
        kind: 'uplink_loss',
        plane: 'transport',
        target: 'uplink',
        index: 0,
        at_ms: 2_000,
        duration_ms: 800,
        lost_text: 'under Rivera',
      }),
    ])
    const audio = loss.apply(tone(1_000), 1_500) // covers 1500..2500 ms of the call
    expect(voicedMs(audio, 0, 480)).toBe(true) // 1500..1980: before the burst
    expect(voicedMs(audio, 520, 1_000)).toBe(false) // 2020..2500: inside it
  })

  test('an utterance that loses every word is not heard at all', () => {
    const loss = new UplinkLoss(faultsOf([{ kind: 'uplink_loss', rate: 1, after_ms: 0, duration_ms: 5_000 }]))
    expect(loss.hear([{ text: 'Mm-hmm.', startMs: 0, endMs: 400 }])).toEqual([])
  })

  test('live: a burst starts at each voice onset the draw hits, on the clean caller voice', () => {
    const faults = faultsOf([{ kind: 'uplink_loss', rate: 1, calls: [1], after_ms: 100, duration_ms: 200 }])
    const loss = new UplinkLoss(faults)
    const frame = tone(20)
    const silent = new Int16Array(samples(20))
    // Utterance 0 from 0 ms, a pause, utterance 1 from 1000 ms.
    for (let at = 0; at < 2_000; at += 20) loss.voice(at < 500 || at >= 1_000 ? frame : silent, at)
    expect(faults.events()).toEqual([expect.objectContaining({ index: 1, at_ms: 1_100, duration_ms: 200 })])
    expect(voicedMs(loss.apply(tone(20), 1_200), 0, 20)).toBe(false)
    expect(voicedMs(loss.apply(tone(20), 1_400), 0, 20)).toBe(true)
  })

  test('a single-turn request is its hearing offline, else its text over its speech', () => {
    expect(requestUtterances({ text: 'x', hearing: [{ text: 'y', startMs: 0, endMs: 5 }] })).toEqual([
      { text: 'y', startMs: 0, endMs: 5 },
    ])
    expect(
      requestUtterances({
        text: 'x',
        hearing: [],
        callerSpeech: [
          { startMs: 100, endMs: 200 },
          { startMs: 300, endMs: 900 },
        ],
      }),
    ).toEqual([{ text: 'x', startMs: 100, endMs: 900 }])
    expect(requestUtterances({ text: 'x', hearing: [] })).toEqual([])
  })
})

/** Plays `audio` through the relay and the downlink faults, 20 ms at a time from 0 ms, for `totalMs`. */
function heardThrough(faults: SessionFaults, audio: Int16Array, totalMs: number): Int16Array {
  const relay = new AudioRelay()
  relay.push(audio)
  const downlink = new DownlinkFaults(faults)
  const heard = new Int16Array(samples(totalMs))
  for (let at = 0; at < totalMs; at += 20) heard.set(downlink.take(relay, samples(20), at), samples(at))
  downlink.finish()
  return heard
}

/** Two utterances: 1 s of voice, 500 ms pause, 1 s of voice. */
const twoUtterances = () => {
  const audio = new Int16Array(samples(2_500))
  audio.set(tone(1_000), 0)
  audio.set(tone(1_000), samples(1_500))
  return audio
}

describe("stream_cut and jitter on the assistant's stream to the caller", () => {
  test('stream_cut: the caller hears the utterance up to after_ms, then silence until it ends; recorded with what it lost', () => {
    const faults = faultsOf([{ kind: 'stream_cut', rate: 1, calls: [1], after_ms: 400 }])
    const heard = heardThrough(faults, twoUtterances(), 3_000)
    expect(voicedMs(heard, 0, 1_000)).toBe(true) // utterance 0 untouched
    expect(voicedMs(heard, 1_500, 1_900)).toBe(true)
    expect(voicedMs(heard, 1_920, 2_600)).toBe(false)
    expect(faults.events()).toEqual([
      expect.objectContaining({
        kind: 'stream_cut',
        target: 'downlink',
        index: 1,
        at_ms: 1_900,
        duration_ms: 600,
      }),
    ])
  })

  test('jitter: the stream stalls for delay_ms at after_ms and the rest arrives that much later', () => {
    const faults = faultsOf([{ kind: 'jitter', rate: 1, calls: [0], after_ms: 200, delay_ms: 300 }])
    const heard = heardThrough(faults, twoUtterances(), 3_500)
    expect(voicedMs(heard, 0, 200)).toBe(true)
    expect(voicedMs(heard, 200, 500)).toBe(false)
    expect(voicedMs(heard, 500, 1_300)).toBe(true) // the rest of utterance 0, 300 ms late
    expect(voicedMs(heard, 1_800, 2_800)).toBe(true) // utterance 1, shifted too
    expect(faults.events()).toEqual([
      expect.objectContaining({ kind: 'jitter', index: 0, at_ms: 200, delay_ms: 300 }),
    ])
  })

  test('without a hit the relay passes through unchanged', () => {
    const audio = twoUtterances()
    const heard = heardThrough(faultsOf([{ kind: 'stream_cut', rate: 0, after_ms: 0 }]), audio, 2_500)
    expect(heard).toEqual(audio)
  })
})
