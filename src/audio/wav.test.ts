import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import wavefile from 'wavefile'
import { pcm16ToBytes } from './pcm.ts'
import {
  decodeMonoWav,
  encodeMonoWav,
  encodePcm16WavPortable,
  encodeStereoWav,
  readMonoWavFile,
  WavFormatError,
} from './wav.ts'

const { WaveFile } = wavefile

const tone = Int16Array.from({ length: 2400 }, (_, i) =>
  Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 24000)),
)

function wavBytes(
  channels: number,
  rate: number,
  bitDepth: string,
  samples: ArrayLike<number>[],
): Uint8Array {
  const wav = new WaveFile()
  wav.fromScratch(channels, rate, bitDepth, channels === 1 ? (samples[0] ?? []) : samples)
  return wav.toBuffer()
}

/** A WAVE_FORMAT_EXTENSIBLE file, written by hand because wavefile only makes one for >2 channels. */
function extensibleWav(samples: Int16Array, subformatCode: number): Uint8Array {
  const data = pcm16ToBytes(samples)
  const header = Buffer.alloc(68)
  header.write('RIFF', 0, 'ascii')
  header.writeUInt32LE(60 + data.length, 4)
  header.write('WAVE', 8, 'ascii')
  header.write('fmt ', 12, 'ascii')
  header.writeUInt32LE(40, 16)
  header.writeUInt16LE(0xfffe, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(24000, 24)
  header.writeUInt32LE(48000, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.writeUInt16LE(22, 36)
  header.writeUInt16LE(16, 38)
  header.writeUInt32LE(4, 40)
  // Subformat GUID: {0000XXXX-0000-0010-8000-00aa00389b71}, XXXX = 1 for PCM, 3 for float.
  Buffer.from([subformatCode, 0, 0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71]).copy(header, 44)
  header.write('data', 60, 'ascii')
  header.writeUInt32LE(data.length, 64)
  return Buffer.concat([header, data])
}

function problemsOf(action: () => unknown): readonly string[] {
  try {
    action()
  } catch (error) {
    if (error instanceof WavFormatError) return error.problems
    throw error
  }
  throw new Error('expected a WavFormatError')
}

describe('decodeMonoWav', () => {
  it('decodes mono 16-bit 24000 Hz audio exactly', () => {
    const decoded = decodeMonoWav(encodeMonoWav(tone), 'tone.wav')
    expect(decoded.sampleRateHz).toBe(24000)
    expect(decoded.durationMs).toBe(100)
    expect([...decoded.samples]).toEqual([...tone])
  })

  it('accepts WAVE_FORMAT_EXTENSIBLE with a PCM subformat and refuses other subformats', () => {
    expect([...decodeMonoWav(extensibleWav(tone, 1), 'ext.wav').samples]).toEqual([...tone])
    expect(problemsOf(() => decodeMonoWav(extensibleWav(tone, 3), 'float.wav'))).toEqual([
      'must be uncompressed PCM (its format code is 65534)',
    ])
  })

  it('names the file and says "must be mono" for stereo', () => {
    const bytes = wavBytes(2, 24000, '16', [tone, tone])
    expect(() => decodeMonoWav(bytes, 'caller.wav')).toThrow(
      /^WAV file caller\.wav: must be mono \(it has 2 channels\)/,
    )
  })

  it('says "must be 16-bit" for 8-bit and 24-bit audio', () => {
    expect(
      problemsOf(() => decodeMonoWav(wavBytes(1, 24000, '8', [new Uint8Array(100).fill(128)]), 'a.wav')),
    ).toEqual(['must be 16-bit (it is 8-bit)'])
    expect(problemsOf(() => decodeMonoWav(wavBytes(1, 24000, '24', [tone]), 'b.wav'))).toEqual([
      'must be 16-bit (it is 24-bit)',
    ])
  })

  it('says "must be 24000 Hz" for another sample rate', () => {
    expect(() => decodeMonoWav(wavBytes(1, 16000, '16', [tone]), 'slow.wav')).toThrow(
      /must be 24000 Hz \(it is 16000 Hz\)/,
    )
  })

  it('lists every format problem at once, with a conversion hint', () => {
    const bytes = wavBytes(2, 44100, '8', [new Uint8Array(10).fill(128), new Uint8Array(10).fill(128)])
    let message = ''
    try {
      decodeMonoWav(bytes, 'all-wrong.wav')
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('must be mono')
    expect(message).toContain('must be 16-bit')
    expect(message).toContain('must be 24000 Hz')
    expect(message).toContain('sox in.wav -c 1 -b 16 -r 24000 out.wav')
  })

  it('refuses μ-law audio as not PCM', () => {
    const wav = new WaveFile()
    wav.fromScratch(1, 24000, '16', tone)
    wav.toMuLaw()
    expect(problemsOf(() => decodeMonoWav(wav.toBuffer(), 'ulaw.wav'))).toEqual([
      'must be uncompressed PCM (its format code is 7)',
      'must be 16-bit (it is 8-bit)',
    ])
  })

  it('says "has no audio" for an empty data chunk', () => {
    expect(() => decodeMonoWav(encodeMonoWav(new Int16Array(0)), 'empty.wav')).toThrow(
      /empty\.wav: has no audio/,
    )
  })

  it('refuses bytes that are not RIFF/WAVE', () => {
    expect(() => decodeMonoWav(new TextEncoder().encode('ID3 this is an mp3'), 'song.mp3')).toThrow(
      /song\.mp3: is not a readable RIFF\/WAVE file/,
    )
  })

  it('refuses a RIFX (big-endian) container', () => {
    const wav = new WaveFile()
    wav.fromScratch(1, 24000, '16', tone, { container: 'RIFX' })
    expect(problemsOf(() => decodeMonoWav(wav.toBuffer(), 'rifx.wav'))).toEqual([
      'must be a RIFF/WAVE file; its container is RIFX',
    ])
  })

  it('refuses a truncated file whose header promises more data', () => {
    const bytes = encodeMonoWav(tone)
    expect(() => decodeMonoWav(bytes.subarray(0, bytes.length - 100), 'cut.wav')).toThrow(
      /cut\.wav: is truncated: its header declares 4800 data bytes but 4700 are present/,
    )
  })
})

describe('readMonoWavFile', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'live-evals-wav-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('reads and validates a file from disk, naming its path', async () => {
    const good = join(dir, 'good.wav')
    await writeFile(good, encodeMonoWav(tone))
    expect((await readMonoWavFile(good)).samples.length).toBe(2400)

    const stereo = join(dir, 'stereo.wav')
    await writeFile(stereo, wavBytes(2, 24000, '16', [tone, tone]))
    await expect(readMonoWavFile(stereo)).rejects.toThrow(`WAV file ${stereo}: must be mono`)
  })

  it('says when the file does not exist', async () => {
    const missing = join(dir, 'missing.wav')
    await expect(readMonoWavFile(missing)).rejects.toThrow(`WAV file ${missing} does not exist`)
  })
})

describe('encoding', () => {
  it('writes stereo with left first and checks equal channel lengths', () => {
    const left = Int16Array.of(1, 2, 3)
    const right = Int16Array.of(-1, -2, -3)
    const wav = new WaveFile(encodeStereoWav(left, right))
    const fmt = wav.fmt as { numChannels: number; sampleRate: number; bitsPerSample: number }
    expect([fmt.numChannels, fmt.sampleRate, fmt.bitsPerSample]).toEqual([2, 24000, 16])
    expect([...wav.getSamples(true, Int16Array)]).toEqual([1, -1, 2, -2, 3, -3])
    expect(() => encodeStereoWav(left, Int16Array.of(1))).toThrow(/same length.*left has 3 samples, right 1/)
  })

  it('writes the same bytes as a general-purpose WAV encoder (wavefile), mono and stereo', () => {
    const mono = new WaveFile()
    mono.fromScratch(1, 24000, '16', tone)
    expect(Buffer.from(encodeMonoWav(tone)).equals(Buffer.from(mono.toBuffer()))).toBe(true)
    const stereo = new WaveFile()
    const right = tone.map((sample) => -sample)
    stereo.fromScratch(2, 16000, '16', [tone, right])
    expect(Buffer.from(encodeStereoWav(tone, right, 16000)).equals(Buffer.from(stereo.toBuffer()))).toBe(true)
  })

  it('writes the bytes of the per-sample DataView encoder, from views at any offset (issue 24 fast path)', () => {
    const backing = Int16Array.from({ length: 24001 }, (_, i) => ((i * 7919) % 65536) - 32768)
    const left = backing.subarray(1)
    const right = backing.subarray(0, 24000).map((sample) => ~sample)
    expect(encodeMonoWav(left)).toEqual(encodePcm16WavPortable([left], 24000))
    expect(encodeStereoWav(left, right, 16000)).toEqual(encodePcm16WavPortable([left, right], 16000))
    expect(encodeMonoWav(new Int16Array(0))).toEqual(encodePcm16WavPortable([new Int16Array(0)], 24000))
  })

  it('writes a 44-byte PCM header followed by little-endian samples', () => {
    const bytes = encodeMonoWav(Int16Array.of(0x0102))
    expect(bytes.length).toBe(46)
    expect([...bytes.subarray(44)]).toEqual([0x02, 0x01])
  })
})
