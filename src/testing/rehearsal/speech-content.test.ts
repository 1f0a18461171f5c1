// Where a clip's content samples lie among its samples, kept as runs of its digital silence: checked against
// the positions themselves, for clips with lone zeros, long runs, and none.
import { describe, expect, it } from 'vitest'
import { contentPlacement, contentWithPositions, sampleOfContent } from './speech-content.ts'

function clipWith(zeroRuns: [number, number][], length: number): Int16Array {
  const clip = new Int16Array(length).map((_, index) => (index % 7) + 1)
  for (const [from, to] of zeroRuns) clip.fill(0, from, to)
  return clip
}

describe('the place of each content sample in its clip', () => {
  it.each([
    ['no silence inside', clipWith([], 50)],
    [
      'a lead-in and a tail of silence',
      clipWith(
        [
          [0, 9],
          [45, 50],
        ],
        50,
      ),
    ],
    [
      'lone zeros and a long run',
      clipWith(
        [
          [0, 3],
          [10, 11],
          [12, 13],
          [20, 40],
          [44, 45],
        ],
        60,
      ),
    ],
  ])('%s', (_, clip) => {
    const placement = contentPlacement(clip)
    const { positions } = contentWithPositions(clip)
    expect(positions.length).toBeGreaterThan(0)
    for (let index = 0; index < positions.length; index++) {
      expect(sampleOfContent(placement, index), `content sample ${index}`).toBe(positions[index])
    }
  })
})
