// The caller speech a CRAWL replay streams: what the recording synthesised, kept in `<cassettes>/speech/` under the
// cassette speech label (the Vitest fixture prepares the caller audio before the scenario's cassette scope opens).
// Replay only reads it: no client, no network, so a text with no recorded speech is a replay fact
// (CallerSpeechNotRecordedError), never a failed text-to-speech request with advice about keys and addresses.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BYTES_PER_SAMPLE, pcm16FromBytes } from '../audio/pcm.ts'
import {
  type SpeechRequest,
  type SpeechSynthesizer,
  type SynthesizedSpeech,
  speechCacheKey,
} from '../audio/synthesis.ts'
import { CallerSpeechNotRecordedError } from './errors.ts'

/** The label cassette speech is keyed by (see SpeechSynthesizerOptions.keyEndpoint). */
export const CASSETTE_SPEECH_KEY = 'live-evals-cassette'

/** What the CRAWL caller source asks of a synthesizer. */
export type CallerSpeech = Pick<SpeechSynthesizer, 'synthesize'>

/** Reads the recorded speech of a request from `folder`; a missing or damaged file is speech never recorded. */
export function recordedCallerSpeech(folder: string): CallerSpeech {
  return {
    async synthesize(request: SpeechRequest): Promise<SynthesizedSpeech> {
      const key = speechCacheKey(request, CASSETTE_SPEECH_KEY)
      const path = join(folder, `${key}.pcm`)
      let bytes: Buffer
      try {
        bytes = await readFile(path)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        throw new CallerSpeechNotRecordedError(folder, request.text)
      }
      // Recordings write atomically: an empty or odd-sized file was cut or replaced from outside.
      if (bytes.byteLength === 0 || bytes.byteLength % BYTES_PER_SAMPLE !== 0) {
        throw new CallerSpeechNotRecordedError(folder, request.text)
      }
      return { samples: pcm16FromBytes(new Uint8Array(bytes)), cached: true, key, path }
    },
  }
}
