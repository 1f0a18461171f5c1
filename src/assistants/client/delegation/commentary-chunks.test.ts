import { describe, expect, it } from 'vitest'
import { MAX_COMMENTARY_CHUNK_BYTES, splitUtf8Chunks } from './commentary-chunks.ts'

const bytes = (text: string) => Buffer.byteLength(text, 'utf8')

describe('splitUtf8Chunks', () => {
  it('keeps a short answer whole', () => {
    expect(splitUtf8Chunks('Thursday at 2:00 PM is available.')).toEqual([
      'Thursday at 2:00 PM is available.',
    ])
  })

  it('splits "Confirmed ✓ " ×90 into several ≤ 400-byte chunks that rejoin exactly', () => {
    const answer = 'Confirmed ✓ '.repeat(90)
    const chunks = splitUtf8Chunks(answer)
    expect(chunks.length).toBeGreaterThan(1)
    for (const chunk of chunks) expect(bytes(chunk)).toBeLessThanOrEqual(MAX_COMMENTARY_CHUNK_BYTES)
    expect(chunks.join('')).toBe(answer)
  })

  it('never cuts inside a multi-byte character or a surrogate pair', () => {
    const answer = `${'a'.repeat(398)}é😀${'b'.repeat(5)}`
    const chunks = splitUtf8Chunks(answer)
    expect(chunks[0]).toBe(`${'a'.repeat(398)}é`)
    expect(chunks[1]).toBe(`😀${'b'.repeat(5)}`)
    expect(
      chunks.every((chunk) => !chunk.includes('\uFFFD') && Buffer.from(chunk).toString() === chunk),
    ).toBe(true)
  })

  it('fills chunks up to the limit exactly', () => {
    expect(splitUtf8Chunks('x'.repeat(801)).map(bytes)).toEqual([400, 400, 1])
  })

  it('refuses a limit that cannot hold every code point', () => {
    expect(() => splitUtf8Chunks('x', 3)).toThrow(/at least 4/)
  })
})
