// The synthetic voice's samples kept on disk between processes: an offline run synthesises every request and every
// reply of the offline server afresh in each process (each Vitest worker, each run), and that was a tenth of an
// offline CRAWL scenario's CPU (bench/crawl-offline.ts). A file is found by a digest of the text, the sample rate
// and the source of the code that makes the samples, so a changed voice (or an upgrade of this package) never reads
// an older one's audio. The folder is in the system's temporary folder: losing it costs a synthesis, nothing more.
// Every failure (a folder that cannot be written, a file cut short by a crash) is a miss: the caller synthesises.
import { hash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const FOLDER_NAME = 'live-evals-synthetic-voice'

/** The modules whose code decides the samples (the voice, and the PCM rounding it ends with). */
const VOICE_SOURCES = [
  new URL('./synthetic-voice.ts', import.meta.url),
  new URL('./pcm.ts', import.meta.url),
] as const

let sourceDigest: string | null | undefined

/** A digest of the voice's own code; null when it cannot be read (then nothing is cached on disk). */
function voiceSourceDigest(): string | null {
  if (sourceDigest !== undefined) return sourceDigest
  try {
    // Built, the modules are .js files beside this one; from source, .ts.
    const here = fileURLToPath(import.meta.url)
    const extension = here.endsWith('.ts') ? '.ts' : '.js'
    const sources = VOICE_SOURCES.map((url) => readFileSync(fileURLToPath(url).replace(/\.ts$/, extension)))
    sourceDigest = hash('sha256', Buffer.concat(sources), 'hex')
  } catch {
    sourceDigest = null
  }
  return sourceDigest
}

function fileFor(text: string, sampleRateHz: number): string | null {
  const digest = voiceSourceDigest()
  if (digest === null) return null
  const key = hash('sha256', `${digest}\u0000${sampleRateHz}\u0000${text}`, 'hex')
  // The folder is looked up at each call: a test run points TMPDIR at its own folder.
  return join(tmpdir(), FOLDER_NAME, `${key}.pcm`)
}

/** The samples kept for `text` at `sampleRateHz`, when a whole file of `sampleCount` samples is there. */
export function readSyntheticSpeech(
  text: string,
  sampleRateHz: number,
  sampleCount: number,
): Int16Array | null {
  const file = fileFor(text, sampleRateHz)
  if (file === null) return null
  try {
    const bytes = readFileSync(file)
    if (bytes.byteLength !== sampleCount * 2) return null
    const samples = new Int16Array(sampleCount)
    new Uint8Array(samples.buffer).set(bytes)
    return samples
  } catch {
    return null
  }
}

/** Keeps `samples` for the next process; written whole under another name, then renamed, so no reader sees part. */
export function writeSyntheticSpeech(text: string, sampleRateHz: number, samples: Int16Array): void {
  const file = fileFor(text, sampleRateHz)
  if (file === null) return
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`
  try {
    mkdirSync(join(tmpdir(), FOLDER_NAME), { recursive: true })
    writeFileSync(partial, new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength))
    renameSync(partial, file)
  } catch {
    // Not kept: the next process synthesises it again. A partial file written before a failed rename goes too.
    try {
      rmSync(partial, { force: true })
    } catch {
      // Its folder is gone or unreadable: there is nothing of ours to remove.
    }
  }
}
