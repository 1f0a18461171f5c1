// The rehearsal hears a line that lost a burst on its way (the harness's uplink_loss fault: a window of the
// caller's audio silenced in place) as the offline server's oracle hears it: that line, without the words whose
// middle fell in the burst. Before, the rehearsal heard the whole line (its envelope still matched), name and all,
// or nothing it could make out, and run_fault_011's assistant took another path live than offline.
import { describe, expect, it } from 'vitest'
import { concatPcm16, durationMs, samplesForMs, silence } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import type { FaultProfile } from '../../config/fault-profiles.ts'
import { SessionFaults } from '../../faults/session.ts'
import { UplinkLoss } from '../../faults/transport.ts'
import { captionsFor } from '../live-server/speech.ts'
import { heardThrough } from './listening.test-helpers.ts'
import { SpeechCatalogue } from './speech-catalogue.ts'

const OPENING = "Hi, I'd like to book a table under Rivera on August 14 at 7 p.m. for two."
const OTHER = 'Great, that all sounds right.'
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
  const audio = concatPcm16([silence(300), syntheticSpeech(OPENING), silence(2_000)])
  const loss = lossOf(durationMs)
  loss.voice(audio, 0)
  return loss.apply(audio, 0)
}

/** The opening's speech span in `audio` (ms), as the oracle's hearing gives it. */
function speechSpan(audio: Int16Array): { startMs: number; endMs: number } {
  const clean = concatPcm16([silence(300), syntheticSpeech(OPENING)])
  const first = clean.findIndex((sample) => sample !== 0)
  let last = clean.length - 1
  while (clean[last] === 0) last--
  expect(audio.length).toBeGreaterThan(last)
  return { startMs: durationMs(first), endMs: durationMs(last + 1) }
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
    const cuts = at.map((share) => samplesForMs(300) + Math.floor(share * syntheticSpeech(OPENING).length))
    const parts: Int16Array[] = []
    let from = 0
    for (const cut of cuts) {
      parts.push(lossy.subarray(from, cut), silence(60))
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
    const words = captionsFor(OPENING, durationMs(first), durationMs(end))
    const wordSpan = (word: string) => {
      const found = words.find((fragment) => fragment.delta.trim() === word)
      if (found === undefined) throw new Error(`no word ${word}`)
      return found
    }
    const lossy = clip.slice()
    // Each burst covers a word and a little either side of it, as a dropped packet run would.
    for (const word of ['Rivera', 'p.m.']) {
      const { start_ms, end_ms } = wordSpan(word)
      lossy.fill(0, samplesForMs(start_ms - 40), samplesForMs(end_ms + 40))
    }
    const between = samplesForMs((wordSpan('August').start_ms + wordSpan('August').end_ms) / 2)
    const sound = concatPcm16([
      silence(300),
      lossy.subarray(0, between),
      silence(60),
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
    lossy.fill(0, end - samplesForMs(400), end - samplesForMs(30))
    const sound = concatPcm16([silence(300), lossy, silence(2_000)])
    const recognised = catalogue().recognise(sound)
    expect(recognised).toMatchObject({ how: 'lossy', clipText: OPENING, startMs: 300 })
    expect(recognised?.text).not.toBe(OPENING)
    expect(heardThrough(catalogue(), sound).map((utterance) => utterance.text)).toEqual([recognised?.text])
  })

  it('a line cut short and picked up later (more of it missing than the silence could hold) is not a lossy line', () => {
    const clip = syntheticSpeech(OPENING)
    // 500 ms of the line never said, and only 100 ms of silence where it would have been.
    const sound = concatPcm16([
      silence(300),
      clip.subarray(0, samplesForMs(2_000)),
      silence(100),
      clip.subarray(samplesForMs(2_500)),
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
    const inserted = concatPcm16([speech.subarray(0, half), silence(300), speech.subarray(half)])
    expect(known.recognise(inserted)).toMatchObject({ text: OPENING, how: 'exact' })
    const cutThenOther = concatPcm16([speech.subarray(0, half), silence(300), syntheticSpeech(OTHER)])
    expect(known.recognise(cutThenOther)?.how).not.toBe('lossy')
    expect(known.leadingPart(cutThenOther)).toMatchObject({ text: OPENING })
    // A lossy line is one line: not a part of it and something else.
    expect(known.leadingPart(lossyOpening(800))).toBeNull()
  })
})
