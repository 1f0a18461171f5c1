// Every kind of WAV a recording must not be, with the reason the readers give. Shared by the whole-file and
// the streaming reader's tests so both are held to the same list.
import wavefile from 'wavefile'
import { encodeMonoWav } from './wav.ts'

const { WaveFile } = wavefile

const tone = Int16Array.from({ length: 2400 }, (_, i) => Math.round(8000 * Math.sin(i / 5)))

function scratch(
  channels: number,
  rate: number,
  depth: string,
  samples: ArrayLike<number> | ArrayLike<number>[],
) {
  const wav = new WaveFile()
  wav.fromScratch(channels, rate, depth, samples)
  return wav.toBuffer()
}

/** A streamed WAV (espeak-ng --stdout): both sizes left at their placeholders. */
function streamed(): Uint8Array {
  const bytes = encodeMonoWav(tone)
  const view = new DataView(bytes.buffer)
  view.setUint32(4, 0x7ffff024, true)
  view.setUint32(40, 0x7ffff000, true)
  return bytes
}

export const BAD_WAVS: { name: string; bytes: () => Uint8Array; reason: RegExp }[] = [
  {
    name: 'stereo',
    bytes: () => scratch(2, 24000, '16', [tone, tone]),
    reason: /must be mono \(it has 2 channels\)/,
  },
  {
    name: '8-bit',
    bytes: () => scratch(1, 24000, '8', new Uint8Array(100).fill(128)),
    reason: /must be 16-bit \(it is 8-bit\)/,
  },
  {
    name: '16 kHz',
    bytes: () => scratch(1, 16000, '16', tone),
    reason: /must be 24000 Hz \(it is 16000 Hz\)/,
  },
  {
    name: 'empty',
    bytes: () => encodeMonoWav(new Int16Array(0)),
    reason: /has no audio \(its data chunk is empty\)/,
  },
  {
    name: 'truncated',
    bytes: () => encodeMonoWav(tone).subarray(0, 44 + 4000),
    reason: /is truncated: its header declares 4800 data bytes but 4000 are present/,
  },
  {
    name: 'placeholder size',
    bytes: streamed,
    reason:
      /was streamed without final sizes: its header declares a placeholder of 2147479552 data bytes but 4800 are present/,
  },
  {
    name: 'not RIFF',
    bytes: () => new TextEncoder().encode('ID3\u0004 an mp3 file, not a WAV'),
    reason: /is not a readable RIFF\/WAVE file/,
  },
]

export const GOOD_TONE = tone
