// In a live RUN call each session hears the other through the harness's relay, which pads with silence when the
// other side's next audio chunk arrives a tick late (the offline voice releases its speech just in time, so on a
// busy machine this happens mid-word). The rehearsal still hears the speech it synthesised, by its content.
import { describe, expect, it } from 'vitest'
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import type { HeardUtterance } from '../live-server/index.ts'
import { CallerListener, UNINTELLIGIBLE } from './caller-listener.ts'
import { SpeechCatalogue } from './speech-catalogue.ts'

const samplesOf = (ms: number) => (SAMPLE_RATE_HZ * ms) / 1000

/** `speech` as the relay delivers it: a lead-in, a 100 ms hole of zeros every `everyMs`, 2 s of silence after. */
function relayed(speech: Int16Array, everyMs: number): Int16Array {
  const parts: Int16Array[] = [new Int16Array(samplesOf(300))]
  for (let at = 0; at < speech.length; at += samplesOf(everyMs)) {
    parts.push(speech.subarray(at, Math.min(speech.length, at + samplesOf(everyMs))))
    parts.push(new Int16Array(samplesOf(100)))
  }
  parts.push(new Int16Array(samplesOf(2_000)))
  const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

function heardThrough(catalogue: SpeechCatalogue, sound: Int16Array): HeardUtterance[] {
  const heard: HeardUtterance[] = []
  const listener = new CallerListener(catalogue, (utterance) => heard.push(utterance))
  for (let at = 0; at < sound.length; at += samplesOf(20))
    listener.receive(sound.subarray(at, at + samplesOf(20)))
  return heard
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
})
