// Test support for the rehearsal's hearing: what a CallerListener hears of a sound given to it in 20 ms chunks, as a
// session's received audio reaches it.
import { samplesForMs } from '../../audio/pcm.ts'
import type { HeardUtterance } from '../live-server/index.ts'
import { CallerListener } from './caller-listener.ts'
import type { SpeechCatalogue } from './speech-catalogue.ts'

/** The utterances heard in `sound`, and each speech start the listener was told of (its words, or null). */
export function listenTo(
  catalogue: SpeechCatalogue,
  sound: Int16Array,
): { heard: HeardUtterance[]; starts: (string | null)[] } {
  const heard: HeardUtterance[] = []
  const starts: (string | null)[] = []
  const listener = new CallerListener(
    catalogue,
    (utterance) => heard.push(utterance),
    (text) => starts.push(text),
  )
  const frame = samplesForMs(20)
  for (let at = 0; at < sound.length; at += frame) listener.receive(sound.subarray(at, at + frame))
  return { heard, starts }
}

/** The utterances heard in `sound`. */
export function heardThrough(catalogue: SpeechCatalogue, sound: Int16Array): HeardUtterance[] {
  return listenTo(catalogue, sound).heard
}
