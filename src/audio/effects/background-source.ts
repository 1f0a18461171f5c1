// The background speech bed: the bundled synthetic two-speaker conversation, or a recording the user names.
// A user's file may be mono or stereo 16-bit PCM at any rate: stereo is averaged to mono and the rate is
// converted to 24 kHz (speex, latency removed), then the bed is peak-normalized to 6000 (§5) so the gain means
// the same thing whatever the file's level. Anything else is refused with the file's name and the reason.

import path from 'node:path'
import wavefile from 'wavefile'
import {
  describeInputFileRefusal,
  INPUT_FILE_CAPS,
  InputFileError,
  readInputFile,
} from '../../inputs/read-input-file.ts'
import { pcm16FromBytes, SAMPLE_RATE_HZ } from '../pcm.ts'
import { resampleWhole } from '../resampler.ts'
import { AudioRealismError } from './errors.ts'

const { WaveFile } = wavefile

/** The bundled conversation (regenerate with assets/make-background-conversation.sh). */
export const BUNDLED_BACKGROUND_SPEECH = path.join(
  import.meta.dirname,
  'assets',
  'background-conversation.wav',
)
/** How metadata names the bundled bed: a stable name, not this machine's absolute path. */
export const BUNDLED_BACKGROUND_NAME = 'bundled:background-conversation.wav'
const BUNDLED_BACKGROUND_PROVENANCE = 'bundled_synthetic_speech'
const USER_BACKGROUND_PROVENANCE = 'user_recording'
/** Peak level of the normalized bed, before the background gain. */
const BACKGROUND_PEAK = 6000

export interface BackgroundBed {
  /** Mono PCM16 at 24 kHz, peak-normalized to BACKGROUND_PEAK. */
  samples: Int16Array
  provenance: typeof BUNDLED_BACKGROUND_PROVENANCE | typeof USER_BACKGROUND_PROVENANCE
}

let bundledBed: Promise<BackgroundBed> | undefined

/**
 * Load the bundled bed (`file` null) or the user's file, resolved against `baseDirectory`. The bundled bed is
 * decoded once per process (callers never modify a bed); a user's file is read each time, since it may change.
 */
export function loadBackgroundBed(file: string | null, baseDirectory: string): Promise<BackgroundBed> {
  if (file !== null) return readBackgroundBed(file, baseDirectory)
  bundledBed ??= readBackgroundBed(null, baseDirectory)
  // A failed load is not cached, so a later call reports the same problem afresh.
  bundledBed.catch(() => {
    bundledBed = undefined
  })
  return bundledBed
}

async function readBackgroundBed(file: string | null, baseDirectory: string): Promise<BackgroundBed> {
  const resolved = file === null ? BUNDLED_BACKGROUND_SPEECH : path.resolve(baseDirectory, file)
  const label = file ?? BUNDLED_BACKGROUND_SPEECH
  let bytes: Uint8Array
  try {
    bytes = await readInputFile(resolved, INPUT_FILE_CAPS.background_bed)
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error
    throw problem(label, describeInputFileRefusal(error.refusal))
  }
  const mono = await decodeAnyPcm16(bytes, label)
  return {
    samples: peakNormalize(mono, label),
    provenance: file === null ? BUNDLED_BACKGROUND_PROVENANCE : USER_BACKGROUND_PROVENANCE,
  }
}

async function decodeAnyPcm16(bytes: Uint8Array, label: string): Promise<Int16Array> {
  const wav = new WaveFile()
  try {
    wav.fromBuffer(bytes, true)
  } catch (error) {
    throw problem(
      label,
      `is not a readable RIFF/WAVE file (${error instanceof Error ? error.message : error})`,
    )
  }
  const fmt = wav.fmt as { audioFormat?: number; numChannels?: number; sampleRate?: number }
  const data = wav.data as { chunkSize?: number; samples?: Uint8Array }
  if (wav.container !== 'RIFF') throw problem(label, `must be RIFF/WAVE (its container is ${wav.container})`)
  if (wav.bitDepth !== '16' || (fmt.audioFormat !== 1 && fmt.audioFormat !== 0xfffe)) {
    throw problem(label, `must be 16-bit PCM (its format code is ${fmt.audioFormat}, depth ${wav.bitDepth})`)
  }
  if (fmt.numChannels !== 1 && fmt.numChannels !== 2) {
    throw problem(label, `must be mono or stereo (it has ${fmt.numChannels} channels)`)
  }
  const payload = data.samples?.byteLength ?? 0
  if (data.chunkSize !== payload) {
    throw problem(
      label,
      `is truncated: its header declares ${data.chunkSize} data bytes but ${payload} are present`,
    )
  }
  if (payload === 0) throw problem(label, 'has no audio (its data chunk is empty)')
  const rate = fmt.sampleRate ?? 0
  if (!(rate >= 8000 && rate <= 192_000)) throw problem(label, `has an unusable sample rate (${rate} Hz)`)
  const interleaved = pcm16FromBytes(data.samples as Uint8Array)
  const mono = fmt.numChannels === 2 ? averageChannels(interleaved) : interleaved
  return resampleWhole(mono, rate, SAMPLE_RATE_HZ)
}

function averageChannels(interleaved: Int16Array): Int16Array {
  const mono = new Int16Array(interleaved.length >> 1)
  for (let i = 0; i < mono.length; i++) {
    mono[i] = Math.round(((interleaved[2 * i] as number) + (interleaved[2 * i + 1] as number)) / 2)
  }
  return mono
}

function peakNormalize(samples: Int16Array, label: string): Int16Array {
  let peak = 0
  for (let i = 0; i < samples.length; i++) {
    const magnitude = Math.abs(samples[i] as number)
    if (magnitude > peak) peak = magnitude
  }
  if (peak === 0) throw problem(label, 'is digital silence; a background bed needs audible speech')
  const scale = BACKGROUND_PEAK / peak
  const normalized = new Int16Array(samples.length)
  for (let i = 0; i < samples.length; i++) normalized[i] = Math.round((samples[i] as number) * scale)
  return normalized
}

function problem(label: string, reason: string): AudioRealismError {
  return new AudioRealismError('background_speech', `Background speech file ${label} ${reason}.`)
}
