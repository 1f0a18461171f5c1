// The rehearsal hears a line that lost a burst on its way (the harness's uplink_loss fault: a window of the
// caller's audio silenced in place) as the offline server's oracle hears it: that line, without the words whose
// middle fell in the burst. Before, the rehearsal heard the whole line (its envelope still matched), name and all,
// or nothing it could make out, and run_fault_011's assistant took another path live than offline.
import { describe, expect, it } from 'vitest'
import { concatPcm16, SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import type { FaultProfile } from '../../config/fault-profiles.ts'
import { SessionFaults } from '../../faults/session.ts'
import { UplinkLoss } from '../../faults/transport.ts'
import type { HeardUtterance } from '../live-server/index.ts'
import { captionsFor } from '../live-server/speech.ts'
import { CallerListener } from './caller-listener.ts'
import { SpeechCatalogue } from './speech-catalogue.ts'

const OPENING = "Hi, I'd like to book a table under Rivera on August 14 at 7 p.m. for two."
const OTHER = 'Great, that all sounds right.'
const samplesOf = (ms: number) => Math.round((ms * SAMPLE_RATE_HZ) / 1000)
const lossOf = (durationMs: number) =>
  new UplinkLoss(
    new SessionFaults(
      {
        name: 'p',
        seed: 1,
        rules: [{ kind: 'uplink_loss', rate: 1, calls: [0], after_ms: 1_800, duration_ms: durationMs }],
      } satisfies FaultProfile,
      'setting',
    ),
  )

/** Another booking that opens with the same words (the bundled RUN sets have several), learnt first. */
const ALIKE = "Hi, I'd like to book a table under Rivera on August 14 at 7 p.m. for four, please."

function catalogue(): SpeechCatalogue {
  const known = new SpeechCatalogue()
  for (const text of [ALIKE, OPENING, OTHER])
    known.add(syntheticSpeech(text), { text, speech: null }, { synthesised: true })
  return known
}

/** The opening after a lead-in of silence, with its burst silenced the way the harness does it live. */
function lossyOpening(durationMs: number): Int16Array {
  const audio = concatPcm16([
    new Int16Array(samplesOf(300)),
    syntheticSpeech(OPENING),
    new Int16Array(samplesOf(2_000)),
  ])
  const loss = lossOf(durationMs)
  loss.voice(audio, 0)
  return loss.apply(audio, 0)
}

/** The opening's speech span in `audio` (ms), as the oracle's hearing gives it. */
function speechSpan(audio: Int16Array): { startMs: number; endMs: number } {
  const clean = concatPcm16([new Int16Array(samplesOf(300)), syntheticSpeech(OPENING)])
  const first = clean.findIndex((sample) => sample !== 0)
  let last = clean.length - 1
  while (clean[last] === 0) last--
  expect(audio.length).toBeGreaterThan(last)
  return { startMs: (first * 1000) / SAMPLE_RATE_HZ, endMs: ((last + 1) * 1000) / SAMPLE_RATE_HZ }
}

function heardThrough(known: SpeechCatalogue, sound: Int16Array): HeardUtterance[] {
  const heard: HeardUtterance[] = []
  const listener = new CallerListener(known, (utterance) => heard.push(utterance))
  for (let at = 0; at < sound.length; at += samplesOf(20))
    listener.receive(sound.subarray(at, at + samplesOf(20)))
  return heard
}

describe('hearing a line that lost a burst in place', () => {
  it.each([800, 300])(
    'a %i ms burst: heard as the line without its lost words, as the offline oracle hears it',
    (durationMs) => {
      const sound = lossyOpening(durationMs)
      const oracle = lossOf(durationMs).hear([{ text: OPENING, ...speechSpan(sound) }])
      expect(oracle[0]?.text).not.toBe(OPENING)
      const recognised = catalogue().recognise(sound)
      expect(recognised).toMatchObject({
        how: 'lossy',
        clipText: OPENING,
        text: oracle[0]?.text,
        startMs: 300,
      })
      const heard = heardThrough(catalogue(), sound)
      expect(heard.map((utterance) => utterance.text)).toEqual([oracle[0]?.text])
      expect(heard[0]?.startMs).toBe(300)
    },
  )

  it.each<[string, number[]]>([
    ['before the burst', [0.2]],
    ['after the burst', [0.8]],
    ['on both sides of it', [0.2, 0.8]],
  ])('with a relay gap inserted %s: still the line without its lost words, and one utterance', (_, at) => {
    const lossy = lossyOpening(800)
    const oracle = lossOf(800).hear([{ text: OPENING, ...speechSpan(lossy) }])
    // A relay ran dry mid-line (the peer's audio a tick late): 60 ms of silence inserted, the line's length grows.
    const cuts = at.map((share) => samplesOf(300) + Math.floor(share * syntheticSpeech(OPENING).length))
    const parts: Int16Array[] = []
    let from = 0
    for (const cut of cuts) {
      parts.push(lossy.subarray(from, cut), new Int16Array(samplesOf(60)))
      from = cut
    }
    parts.push(lossy.subarray(from))
    const sound = concatPcm16(parts)
    expect(catalogue().recognise(sound)).toMatchObject({
      how: 'lossy',
      clipText: OPENING,
      text: oracle[0]?.text,
      startMs: 300,
    })
    expect(heardThrough(catalogue(), sound).map((utterance) => utterance.text)).toEqual([oracle[0]?.text])
  })

  it('two bursts lost, with a relay gap between them: heard without the words of either', () => {
    const clip = syntheticSpeech(OPENING)
    const first = clip.findIndex((sample) => sample !== 0)
    let end = clip.length
    while (clip[end - 1] === 0) end--
    const words = captionsFor(OPENING, (first * 1000) / SAMPLE_RATE_HZ, (end * 1000) / SAMPLE_RATE_HZ)
    const wordSpan = (word: string) => {
      const found = words.find((fragment) => fragment.delta.trim() === word)
      if (found === undefined) throw new Error(`no word ${word}`)
      return found
    }
    const lossy = clip.slice()
    // Each burst covers a word and a little either side of it, as a dropped packet run would.
    for (const word of ['Rivera', 'p.m.']) {
      const { start_ms, end_ms } = wordSpan(word)
      lossy.fill(0, samplesOf(start_ms - 40), samplesOf(end_ms + 40))
    }
    const between = samplesOf((wordSpan('August').start_ms + wordSpan('August').end_ms) / 2)
    const sound = concatPcm16([
      new Int16Array(samplesOf(300)),
      lossy.subarray(0, between),
      new Int16Array(samplesOf(60)),
      lossy.subarray(between),
    ])
    const recognised = catalogue().recognise(sound)
    expect(recognised).toMatchObject({ how: 'lossy', clipText: OPENING, startMs: 300 })
    const heard = recognised?.text.split(' ') ?? []
    expect(heard).not.toContain('Rivera')
    expect(heard).not.toContain('p.m.')
    expect(heard).toEqual(expect.arrayContaining(['table', 'August', '14', 'for', 'two.']))
  })

  it('a burst lost at the very end of the line, where no whole block of it follows: still heard as that line', () => {
    const clip = syntheticSpeech(OPENING)
    let end = clip.length
    while (clip[end - 1] === 0) end--
    const lossy = clip.slice()
    lossy.fill(0, end - samplesOf(400), end - samplesOf(30))
    const sound = concatPcm16([new Int16Array(samplesOf(300)), lossy, new Int16Array(samplesOf(2_000))])
    const recognised = catalogue().recognise(sound)
    expect(recognised).toMatchObject({ how: 'lossy', clipText: OPENING, startMs: 300 })
    expect(recognised?.text).not.toBe(OPENING)
    expect(heardThrough(catalogue(), sound).map((utterance) => utterance.text)).toEqual([recognised?.text])
  })

  it('a line cut short and picked up later (more of it missing than the silence could hold) is not a lossy line', () => {
    const clip = syntheticSpeech(OPENING)
    // 500 ms of the line never said, and only 100 ms of silence where it would have been.
    const sound = concatPcm16([
      new Int16Array(samplesOf(300)),
      clip.subarray(0, samplesOf(2_000)),
      new Int16Array(samplesOf(100)),
      clip.subarray(samplesOf(2_500)),
    ])
    expect(catalogue().recognise(sound)?.how).not.toBe('lossy')
  })

  it("matches the synthetic voice's clips however they were learnt (a dataset row's text), never a recording", () => {
    const sound = lossyOpening(800)
    const asRow = new SpeechCatalogue()
    asRow.add(syntheticSpeech(OPENING), { text: OPENING, speech: null }, { syntheticVoice: true })
    expect(asRow.recognise(sound)).toMatchObject({ how: 'lossy', clipText: OPENING })
    // The same samples learnt as a recording: a preset's packet loss must not read as a lost burst.
    const asRecording = new SpeechCatalogue()
    asRecording.add(syntheticSpeech(OPENING), { text: OPENING, speech: null })
    expect(asRecording.recognise(sound)?.how).not.toBe('lossy')
  })

  it('a line with a relay gap inserted, a line cut short, another line: none of them is a lossy match', () => {
    const known = catalogue()
    const speech = syntheticSpeech(OPENING)
    const half = Math.floor(speech.length / 2)
    const inserted = concatPcm16([
      speech.subarray(0, half),
      new Int16Array(samplesOf(300)),
      speech.subarray(half),
    ])
    expect(known.recognise(inserted)).toMatchObject({ text: OPENING, how: 'exact' })
    const cutThenOther = concatPcm16([
      speech.subarray(0, half),
      new Int16Array(samplesOf(300)),
      syntheticSpeech(OTHER),
    ])
    expect(known.recognise(cutThenOther)?.how).not.toBe('lossy')
    expect(known.leadingPart(cutThenOther)).toMatchObject({ text: OPENING })
    // A lossy line is one line: not a part of it and something else.
    expect(known.leadingPart(lossyOpening(800))).toBeNull()
  })
})
