import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  concatPcm16,
  durationMs,
  pcm16FromBase64,
  pcm16FromBytes,
  pcm16FromBytesPortable,
  pcm16ToBase64,
  pcm16ToBytes,
  pcm16ToBytesPortable,
  roundHalfUp,
  SAMPLES_PER_FRAME,
  samplesForMs,
  silence,
  splitFrames,
  strictBase64ByteLength,
} from './pcm.ts'

describe('PCM16 bytes', () => {
  it('encodes little-endian regardless of the host byte order', () => {
    const bytes = pcm16ToBytes(Int16Array.of(0x0102, -2, 32767, -32768))
    expect([...bytes]).toEqual([0x02, 0x01, 0xfe, 0xff, 0xff, 0x7f, 0x00, 0x80])
  })

  it('decodes little-endian bytes, including from an unaligned view', () => {
    const backing = new Uint8Array([0xaa, 0x02, 0x01, 0xfe, 0xff])
    const samples = pcm16FromBytes(backing.subarray(1))
    expect([...samples]).toEqual([0x0102, -2])
  })

  it('refuses an odd byte count', () => {
    expect(() => pcm16FromBytes(new Uint8Array(3))).toThrow(/even number of bytes.*got 3/)
  })

  it('round-trips through base64', () => {
    const samples = Int16Array.of(1, -1, 1000, -1000, 32767, -32768)
    const encoded = pcm16ToBase64(samples)
    expect(encoded).toBe(Buffer.from(pcm16ToBytes(samples)).toString('base64'))
    expect([...pcm16FromBase64(encoded)]).toEqual([...samples])
  })

  it('refuses corrupted base64 instead of skipping characters', () => {
    expect(() => pcm16FromBase64('AAA*AA==')).toThrow(/not valid base64/)
    expect(() => pcm16FromBase64('AAA')).toThrow(/not valid base64/)
  })

  it('converts exactly as the per-sample DataView code, from views at any offset (issue 24 fast path)', () => {
    let state = 12345
    const backing = Int16Array.from({ length: 4801 }, () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0
      return (state >>> 8) - 32768
    })
    for (const samples of [backing, backing.subarray(1, 4001), backing.subarray(0, 0)]) {
      const bytes = pcm16ToBytes(samples)
      expect(bytes).toEqual(pcm16ToBytesPortable(samples))
      expect(bytes.buffer).not.toBe(samples.buffer)
      expect(pcm16FromBytes(bytes)).toEqual(pcm16FromBytesPortable(bytes))
      const unaligned = new Uint8Array(bytes.length + 1)
      unaligned.set(bytes, 1)
      expect(pcm16FromBytes(unaligned.subarray(1))).toEqual(samples.slice())
      expect(pcm16ToBase64(samples)).toBe(Buffer.from(pcm16ToBytesPortable(samples)).toString('base64'))
    }
  })

  it('accepts exactly the standard base64 alphabet, character by character', () => {
    const alphabet = /^[A-Za-z0-9+/]$/
    for (let code = 0; code < 0x3000; code++) {
      const letter = String.fromCharCode(code)
      const expected = alphabet.test(letter) ? 3 : null
      expect(strictBase64ByteLength(`AA${letter}A`), `code ${code}`).toBe(expected)
    }
    expect(strictBase64ByteLength('AAA=')).toBe(2)
    expect(strictBase64ByteLength('AA==')).toBe(1)
    expect(strictBase64ByteLength('A===')).toBeNull()
    expect(strictBase64ByteLength('')).toBe(0)
  })

  it('agrees with the rule written out character by character on any mix of base64 and other characters', () => {
    // Strict base64, spelled out: a length that is a multiple of 4, then only the standard alphabet up to at most
    // two '=' at the very end.
    const byRule = (text: string): number | null => {
      if (text.length % 4 !== 0) return null
      const body = text.replace(/={1,2}$/, '')
      if (!/^[A-Za-z0-9+/]*$/.test(body)) return null
      return (text.length / 4) * 3 - (text.length - body.length)
    }
    const letters = [...'AQgw+/9Zaz=-_ \n\t\r\f!.é€ī\u0000\u0141']
    const text = fc.array(fc.constantFrom(...letters), { maxLength: 24 }).map((chars) => chars.join(''))
    fc.assert(
      fc.property(text, (candidate) => {
        const expected = byRule(candidate)
        expect(strictBase64ByteLength(candidate)).toBe(expected)
        if (expected !== null && expected % 2 === 0) {
          expect(pcm16FromBase64(candidate).byteLength).toBe(expected)
        } else if (expected === null) {
          expect(() => pcm16FromBase64(candidate)).toThrow(/not valid base64/)
        }
      }),
      { numRuns: 20_000 },
    )
    // Long payloads too, with one character spoiled anywhere.
    const payload = Buffer.alloc(9_600, 0x5a).toString('base64')
    for (const at of [0, 1, 5_000, payload.length - 3]) {
      for (const spoiler of [' ', '-', '_', '=', 'é', '\n']) {
        const spoiled = `${payload.slice(0, at)}${spoiler}${payload.slice(at + 1)}`
        expect(strictBase64ByteLength(spoiled), `${JSON.stringify(spoiler)} at ${at}`).toBe(byRule(spoiled))
      }
    }
  })

  it('refuses base64 that decodes to an odd byte count', () => {
    expect(() => pcm16FromBase64('AA==')).toThrow(/even number of bytes/)
  })
})

describe('durations and silence', () => {
  it('converts between milliseconds and samples at 24 kHz', () => {
    expect(samplesForMs(20)).toBe(480)
    expect(samplesForMs(1000, 16_000)).toBe(16_000)
    expect(durationMs(480)).toBe(20)
    expect(durationMs(36)).toBe(1.5)
  })

  it('refuses negative or non-finite durations', () => {
    expect(() => samplesForMs(-1)).toThrow(/>= 0 ms/)
    expect(() => samplesForMs(Number.NaN)).toThrow(/finite/)
  })

  it('makes digital silence of the requested length', () => {
    const quiet = silence(250)
    expect(quiet.length).toBe(6000)
    expect(quiet.every((value) => value === 0)).toBe(true)
  })

  it('concatenates chunks in order', () => {
    const joined = concatPcm16([Int16Array.of(1, 2), new Int16Array(0), Int16Array.of(3)])
    expect([...joined]).toEqual([1, 2, 3])
  })
})

describe('splitFrames', () => {
  it('cuts 20 ms frames of 480 samples', () => {
    const audio = Int16Array.from({ length: SAMPLES_PER_FRAME * 3 }, (_, i) => i % 1000)
    const frames = splitFrames(audio)
    expect(frames).toHaveLength(3)
    expect(frames.every((frame) => frame.length === 480)).toBe(true)
    expect(frames[1]?.[0]).toBe(480)
  })

  it('pads the last partial frame with silence by default', () => {
    const audio = Int16Array.from({ length: 500 }, () => 7)
    const frames = splitFrames(audio)
    expect(frames.map((frame) => frame.length)).toEqual([480, 480])
    const last = frames[1] ?? new Int16Array(0)
    expect([...last.subarray(0, 20)].every((value) => value === 7)).toBe(true)
    expect([...last.subarray(20)].every((value) => value === 0)).toBe(true)
  })

  it('keeps the last partial frame short when asked', () => {
    const frames = splitFrames(new Int16Array(500), { lastFrame: 'keep' })
    expect(frames.map((frame) => frame.length)).toEqual([480, 20])
  })

  it('returns copies that do not alias the input', () => {
    const audio = new Int16Array(480)
    const [frame] = splitFrames(audio)
    audio[0] = 99
    expect(frame?.[0]).toBe(0)
  })

  it('returns no frames for empty audio and refuses a bad frame size', () => {
    expect(splitFrames(new Int16Array(0))).toEqual([])
    expect(() => splitFrames(new Int16Array(10), { samplesPerFrame: 0 })).toThrow(/positive integer/)
  })
})

// +0 for -0: Int16Array stores both as 0, and the effects only ever store the result.
const plain = (value: number) => (value === 0 ? 0 : value)

describe('roundHalfUp', () => {
  it('equals Math.round at the values where floor(x + 0.5) could differ', () => {
    const edges = [
      0.49999999999999994, // the one double below 0.5: x + 0.5 rounds up to 1
      -0.49999999999999994,
      0.5,
      -0.5,
      1.5,
      -1.5,
      2.5,
      -2.5,
      32766.5,
      -32768.5,
      2 ** 52 - 0.5,
      -(2 ** 52) + 0.5,
      Number.MIN_VALUE,
      -Number.MIN_VALUE,
      0,
      -0,
    ]
    for (const x of edges) expect(plain(roundHalfUp(x)), String(x)).toBe(plain(Math.round(x)))
    expect(Math.floor(0.49999999999999994 + 0.5)).toBe(1) // why the special case exists
  })

  it('equals Math.round for any double below 2^52 in size (audio sums stay below 2^20)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -(2 ** 52), max: 2 ** 52, noNaN: true }),
        (x) => plain(roundHalfUp(x)) === plain(Math.round(x)),
      ),
      { numRuns: 20_000 },
    )
  })

  it('equals Math.round on every half step of the PCM16 range and its neighbours', () => {
    for (let k = -32769; k <= 32768; k++) {
      for (const x of [k + 0.5, k + 0.5 - 2 ** -40, k + 0.5 + 2 ** -40]) {
        if (plain(roundHalfUp(x)) !== plain(Math.round(x))) expect.fail(`differs at ${x}`)
      }
    }
  })
})
