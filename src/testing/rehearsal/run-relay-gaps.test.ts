// In a live RUN call each session hears the other through the harness's relay, which pads with silence when the
// other side's next audio chunk arrives a tick late (the offline voice releases its speech just in time, so on a
// busy machine this happens mid-word, and under load for a second). The rehearsal still hears the speech it
// synthesised, by its content: a part of a known clip is that clip at that position, so a line with a long gap in
// it is one line, and sound after the gap that is not the rest of it is another.
import { describe, expect, it } from 'vitest'
import { concatPcm16, durationMs, samplesForMs, silence } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { PART_WAIT_MS, UNINTELLIGIBLE } from './caller-listener.ts'
import { heardThrough, listenTo } from './listening.test-helpers.ts'
import { SpeechCatalogue } from './speech-catalogue.ts'

/** `speech` as the relay delivers it: a lead-in, a 100 ms hole of zeros every `everyMs`, 2 s of silence after. */
function relayed(speech: Int16Array, everyMs: number): Int16Array {
  const parts: Int16Array[] = [silence(300)]
  for (let at = 0; at < speech.length; at += samplesForMs(everyMs)) {
    parts.push(speech.subarray(at, Math.min(speech.length, at + samplesForMs(everyMs))))
    parts.push(silence(100))
  }
  parts.push(silence(2_000))
  return concatPcm16(parts)
}

const LINES = [
  'Sure, put it under Okafor, and we would like a table by the window please.',
  'Perfect, that works for us.',
  'Thank you, bye.',
  'One moment.',
]

function catalogueOfLines(): SpeechCatalogue {
  const catalogue = new SpeechCatalogue()
  for (const text of LINES)
    catalogue.add(syntheticSpeech(text), { text, speech: null }, { synthesised: true })
  return catalogue
}

describe('hearing a RUN session through a relay that ran dry', () => {
  it('recognises the speech exactly when silence was inserted inside it', () => {
    const catalogue = new SpeechCatalogue()
    const lines = ['Sure, put it under Okafor.', 'Perfect, that works for us.', 'Thank you, bye.']
    for (const text of lines)
      catalogue.add(syntheticSpeech(text), { text, speech: null }, { synthesised: true })
    const speech = syntheticSpeech(lines[0] as string)
    const sound = relayed(speech, 100)
    expect(catalogue.recognise(sound)).toMatchObject({ text: lines[0], how: 'exact', startMs: 300 })
    expect(heardThrough(catalogue, sound).map((utterance) => utterance.text)).toEqual([lines[0]])
  })

  it('still hears speech it never said as unintelligible, gaps or not', () => {
    const catalogue = new SpeechCatalogue()
    catalogue.add(syntheticSpeech('Thank you, bye.'), { text: 'Thank you, bye.', speech: null })
    const sound = relayed(syntheticSpeech('Could I book a table for two tomorrow at seven?'), 100)
    expect(heardThrough(catalogue, sound).map((utterance) => utterance.text)).toEqual([UNINTELLIGIBLE])
  })

  it('hears a known line with a 0.8 s gap in its middle as that one line, its speech starting once', () => {
    const catalogue = catalogueOfLines()
    const speech = syntheticSpeech(LINES[0] as string)
    const middle = Math.floor(speech.length / 2)
    // Among the thousands of clips of a rehearsal there is one whose loudness follows this line's first half
    // (here: another line made of it, a little quieter): half the line heard alone would be heard as that line.
    const decoy = 'Table for four at eight.'
    catalogue.add(
      speech.slice(0, middle).map((sample) => Math.round(sample * 0.9)),
      { text: decoy, speech: null },
    )
    expect(catalogue.recognise(speech.subarray(0, middle))).toMatchObject({ text: decoy, how: 'envelope' })
    const sound = concatPcm16([
      silence(300),
      speech.subarray(0, middle),
      silence(800),
      speech.subarray(middle),
      silence(2_000),
    ])
    const { heard, starts } = listenTo(catalogue, sound)
    expect(heard).toHaveLength(1)
    expect(heard[0]).toMatchObject({ text: LINES[0], startMs: 300 })
    expect(starts).toEqual([LINES[0]])
  })

  it('hears a gap of longer than the unrecognised-sound wait inside a line as one line too', () => {
    const catalogue = catalogueOfLines()
    const speech = syntheticSpeech(LINES[1] as string)
    const third = Math.floor(speech.length / 3)
    const sound = concatPcm16([
      silence(300),
      speech.subarray(0, third),
      silence(2_500),
      speech.subarray(third, 2 * third),
      silence(900),
      speech.subarray(2 * third),
      silence(2_000),
    ])
    expect(heardThrough(catalogue, sound).map((utterance) => utterance.text)).toEqual([LINES[1]])
  })

  it('hears a line cut short then another line as two: the words the first said, and the second', () => {
    const catalogue = catalogueOfLines()
    const first = syntheticSpeech(LINES[0] as string)
    const cut = first.subarray(0, Math.floor(first.length / 2))
    const sound = concatPcm16([
      silence(300),
      cut,
      silence(800),
      syntheticSpeech(LINES[2] as string),
      silence(2_000),
    ])
    const { heard, starts } = listenTo(catalogue, sound)
    expect(heard.map((utterance) => utterance.text)).toHaveLength(2)
    // The first half of the first line's words, never the whole line nor another line's.
    expect((LINES[0] as string).startsWith(heard[0]?.text ?? '-')).toBe(true)
    expect(heard[0]?.text).not.toBe(LINES[0])
    expect(heard[0]?.text.length).toBeGreaterThan(10)
    expect(heard[1]?.text).toBe(LINES[2])
    expect(heard[1]?.startMs).toBeGreaterThanOrEqual(heard[0]?.endMs ?? Infinity)
    expect(starts).toEqual([LINES[0], LINES[2]])
  })

  it('hears a line cut short and nothing after it as the words it said, once the wait for its rest is over', () => {
    const catalogue = catalogueOfLines()
    const first = syntheticSpeech(LINES[0] as string)
    const sound = concatPcm16([silence(300), first.subarray(0, Math.floor(first.length / 2))])
    expect(heardThrough(catalogue, concatPcm16([sound, silence(PART_WAIT_MS - 200)]))).toEqual([])
    const heard = heardThrough(catalogue, concatPcm16([sound, silence(PART_WAIT_MS + 200)]))
    expect(heard).toHaveLength(1)
    expect((LINES[0] as string).startsWith(heard[0]?.text ?? '-')).toBe(true)
  })

  it('hears a line said half a second after another, with a 0.8 s gap in its middle, as the two lines', () => {
    const catalogue = catalogueOfLines()
    const speech = syntheticSpeech(LINES[0] as string)
    const middle = Math.floor(speech.length / 2)
    const sound = concatPcm16([
      silence(300),
      syntheticSpeech(LINES[3] as string),
      silence(460),
      speech.subarray(0, middle),
      silence(800),
      speech.subarray(middle),
      silence(2_000),
    ])
    const heard = heardThrough(catalogue, sound)
    expect(heard.map((utterance) => utterance.text)).toEqual([LINES[3], LINES[0]])
    expect(heard[0]?.startMs).toBe(300)
  })

  it.each([100, 300, 650])(
    'hears a line cut short, a hold and an answer %i ms apart (too short a pause to part them) as the three, each where it was',
    (gapMs) => {
      const catalogue = catalogueOfLines()
      const first = syntheticSpeech(LINES[0] as string)
      // Cut inside its second third, after a gap the relay left inside it: the gap is no end of the line.
      const third = Math.floor(first.length / 3)
      const cut = concatPcm16([
        first.subarray(0, third),
        silence(100),
        first.subarray(third, third + Math.floor(third / 2)),
      ])
      const hold = syntheticSpeech(LINES[3] as string)
      const answer = syntheticSpeech(LINES[1] as string)
      const sound = concatPcm16([
        silence(300),
        cut,
        silence(gapMs),
        hold,
        silence(gapMs),
        answer,
        silence(2_000),
      ])
      expect(catalogue.leadingPart(sound)).toMatchObject({
        text: LINES[0],
        startMs: 300,
        endSample: samplesForMs(300) + cut.length,
      })
      const heard = heardThrough(catalogue, sound)
      expect(heard.map((utterance) => utterance.text)).toHaveLength(3)
      // The cut line as the words it said (more than its first third: the relay's gap did not end it).
      expect((LINES[0] as string).startsWith(heard[0]?.text ?? '-')).toBe(true)
      expect(heard[0]?.text.length).toBeGreaterThan((LINES[0] as string).length / 3)
      expect(heard[0]?.text).not.toBe(LINES[0])
      expect(heard[0]?.startMs).toBe(300)
      const holdFromMs = 300 + durationMs(cut.length) + gapMs
      expect(heard[1]).toMatchObject({ text: LINES[3] })
      expect(Math.abs((heard[1]?.startMs ?? 0) - holdFromMs)).toBeLessThanOrEqual(1)
      expect(heard[2]).toMatchObject({ text: LINES[1] })
      const answerFromMs = holdFromMs + durationMs(hold.length) + gapMs
      expect(Math.abs((heard[2]?.startMs ?? 0) - answerFromMs)).toBeLessThanOrEqual(1)
    },
  )

  it('splits off no part where there is none: one line with a gap inside, a whole line first, unknown speech', () => {
    const catalogue = catalogueOfLines()
    const speech = syntheticSpeech(LINES[0] as string)
    const middle = Math.floor(speech.length / 2)
    const gapInside = concatPcm16([
      silence(300),
      speech.subarray(0, middle),
      silence(300),
      speech.subarray(middle),
    ])
    expect(catalogue.leadingPart(gapInside)).toBeNull()
    const wholeFirst = concatPcm16([
      syntheticSpeech(LINES[3] as string),
      silence(300),
      syntheticSpeech(LINES[1] as string),
    ])
    expect(catalogue.leadingPart(wholeFirst)).toBeNull()
    expect(catalogue.leadingClip(wholeFirst)).toMatchObject({ text: LINES[3] })
    const unknown = concatPcm16([
      syntheticSpeech('Nobody catalogued this line at all.'),
      silence(300),
      syntheticSpeech(LINES[1] as string),
    ])
    expect(catalogue.leadingPart(unknown)).toBeNull()
  })
})
