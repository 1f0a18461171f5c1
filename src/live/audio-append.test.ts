import { describe, expect, it } from 'vitest'
import { audioAppendFrame, audioAppendProblem, audioOfAppendFrame } from './audio-append.ts'

/** What the session sent before: the event through JSON.stringify, its audio through Buffer's base64. */
function stringified(audio: Uint8Array): string {
  const base64 = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength).toString('base64')
  return JSON.stringify({ type: 'session.input_audio.append', audio: base64 })
}

/** Deterministic bytes covering every value (a linear congruential walk). */
function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length)
  let state = seed
  for (let index = 0; index < length; index++) {
    state = (state * 1_103_515_245 + 12_345) >>> 0
    out[index] = state >>> 24
  }
  return out
}

describe('audioAppendFrame: the append frame written straight from the audio bytes', () => {
  it('is byte for byte the JSON of the append event, for every padding and for every byte value', () => {
    for (let length = 1; length <= 66; length++) {
      const audio = bytes(length, length)
      expect(audioAppendFrame(audio)).toBe(stringified(audio))
    }
    const everyByte = Uint8Array.from({ length: 768 }, (_, index) => index % 256)
    expect(audioAppendFrame(everyByte)).toBe(stringified(everyByte))
  })

  it('reads a view at its offset, and a long frame then a short one leave nothing of the first behind', () => {
    const pcm = Int16Array.from({ length: 480 }, (_, index) => (index * 977) % 65_536)
    const view = new Uint8Array(pcm.buffer, 2, 640)
    expect(audioAppendFrame(view)).toBe(stringified(view))
    const long = bytes(48_000, 3)
    const short = bytes(7, 4)
    expect(audioAppendFrame(long)).toBe(stringified(long))
    expect(audioAppendFrame(short)).toBe(stringified(short))
    expect(JSON.parse(audioAppendFrame(short))).toEqual({
      type: 'session.input_audio.append',
      audio: Buffer.from(short).toString('base64'),
    })
  })

  it('audioOfAppendFrame gives back the base64 audio the frame carries', () => {
    const audio = bytes(640, 9)
    const frame = audioAppendFrame(audio)
    expect(audioOfAppendFrame(frame)).toBe(Buffer.from(audio).toString('base64'))
    expect(Buffer.from(audioOfAppendFrame(frame), 'base64')).toEqual(Buffer.from(audio))
  })

  it('audioAppendProblem refuses an empty append and odd PCM16 byte counts', () => {
    expect(audioAppendProblem(new Uint8Array(0), true)).toMatch(/must not be empty/)
    expect(audioAppendProblem(new Uint8Array(3), true)).toMatch(/even byte count, got 3/)
    expect(audioAppendProblem(new Uint8Array(3), false)).toBeNull()
  })
})
