import { describe, expect, test } from 'vitest'
import { encodeMonoWav, encodeStereoWav } from '../audio/wav.ts'
import { peakEnvelope, readPcm16Wav } from './pcm-wav.ts'

describe('readPcm16Wav', () => {
  test('reads the stereo conversation layout: left caller, right assistant', () => {
    const left = Int16Array.from([1, 2, 3, 4])
    const right = Int16Array.from([-1, -2, -3, -4])
    const read = readPcm16Wav(encodeStereoWav(left, right, 8_000))
    expect(read.ok && read.audio.channels).toEqual([left, right])
    expect(read.ok && read.audio.durationMs).toBe(0.5)
  })
  test('damaged or foreign bytes give a reason, never a throw', () => {
    const wav = encodeMonoWav(Int16Array.from([5, 6, 7]))
    expect(readPcm16Wav(new Uint8Array(3))).toEqual({ ok: false, reason: 'not a RIFF/WAVE file' })
    expect(readPcm16Wav(wav.subarray(0, 36))).toEqual({ ok: false, reason: 'no data chunk' })
    // a data chunk that claims more than the file holds is read as far as it goes
    const cut = readPcm16Wav(wav.subarray(0, wav.length - 2))
    expect(cut.ok && cut.audio.channels[0]).toEqual(Int16Array.from([5, 6]))
    const float = Uint8Array.from(wav)
    new DataView(float.buffer).setUint16(20, 3, true)
    expect(readPcm16Wav(float)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not 16-bit PCM'),
    })
    const huge = Uint8Array.from(wav)
    new DataView(huge.buffer).setUint32(16, 0xffff_fff0, true)
    expect(readPcm16Wav(huge).ok).toBe(false)
  })
  test('peakEnvelope: the loudest sample per slice, in [0, 1]', () => {
    expect(peakEnvelope(Int16Array.from([0, 16_384, -32_768, 0]), 2)).toEqual([0.5, 1])
    expect(peakEnvelope(new Int16Array(0), 4)).toEqual([])
  })
})
