// espeak-ng from the operating system (Debian's package `espeak-ng`), run as a process: deterministic, offline,
// nothing to download. Text goes through a file (never the command line, so a request starting with "-" is
// still text) and the WAV comes back through `-w`, which, unlike `--stdout`, writes real sizes. espeak-ng
// speaks at 22050 Hz; the speex resampler brings it to 24 kHz with its latency removed, so the same text,
// voice and rate give the same bytes on every run of the same espeak-ng.

import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import wavefile from 'wavefile'
import { SAMPLE_RATE_HZ } from '../../../audio/pcm.ts'
import { resampleWhole } from '../../../audio/resampler.ts'
import { type SpeechEngine, SpeechEngineError } from './engine.ts'

const { WaveFile } = wavefile
const run = promisify(execFile)

/** The pinned voice and rate of our bundled recordings. */
const ESPEAK_VOICE = 'en-us'
const ESPEAK_RATE_WPM = 160

const MISSING =
  'espeak-ng is not installed (it is the Debian/Ubuntu package "espeak-ng": apt-get install -y espeak-ng); ' +
  'install it, or record with --engine openai and OPENAI_API_KEY'

/** espeak-ng's version ("1.51"), or null when the command is not there. */
export async function espeakVersion(command = 'espeak-ng'): Promise<string | null> {
  try {
    const { stdout } = await run(command, ['--version'], { timeout: 10_000 })
    return /text-to-speech:\s*([0-9][^\s]*)/.exec(stdout)?.[1] ?? 'unknown'
  } catch {
    return null
  }
}

export async function espeakEngine(
  options: { voice?: string; rateWpm?: number; command?: string } = {},
): Promise<SpeechEngine> {
  const command = options.command ?? 'espeak-ng'
  const version = await espeakVersion(command)
  if (version === null) throw new SpeechEngineError(MISSING)
  const voice = options.voice ?? ESPEAK_VOICE
  const rateWpm = options.rateWpm ?? ESPEAK_RATE_WPM
  if (!Number.isInteger(rateWpm) || rateWpm < 80 || rateWpm > 450) {
    throw new SpeechEngineError(`the espeak-ng rate must be 80 to 450 words per minute; got ${rateWpm}`)
  }
  return {
    engine: 'espeak-ng',
    model: `espeak-ng ${version}`,
    voice,
    version,
    rateWpm,
    async synthesize(text) {
      const folder = await mkdtemp(join(tmpdir(), 'live-evals-espeak-'))
      try {
        await writeFile(join(folder, 'text.txt'), text, { mode: 0o600 })
        const wav = join(folder, 'speech.wav')
        try {
          await run(
            command,
            ['-v', voice, '-s', String(rateWpm), '-f', join(folder, 'text.txt'), '-w', wav],
            {
              timeout: 60_000,
            },
          )
        } catch (error) {
          throw new SpeechEngineError(
            `espeak-ng failed (voice "${voice}", ${rateWpm} words per minute): ${(error as Error).message.trim()}`,
            { cause: error },
          )
        }
        const parsed = new WaveFile(await readFile(wav))
        const format = parsed.fmt as { numChannels: number; sampleRate: number; bitsPerSample: number }
        if (format.numChannels !== 1 || format.bitsPerSample !== 16) {
          throw new SpeechEngineError(
            `espeak-ng wrote ${format.numChannels} channel(s) of ${format.bitsPerSample}-bit audio; expected mono 16-bit`,
          )
        }
        const samples = parsed.getSamples(false, Int16Array) as unknown as Int16Array
        if (samples.length === 0)
          throw new SpeechEngineError(`espeak-ng produced no audio for ${JSON.stringify(text)}`)
        return resampleWhole(samples, format.sampleRate, SAMPLE_RATE_HZ)
      } finally {
        await rm(folder, { recursive: true, force: true })
      }
    },
  }
}
