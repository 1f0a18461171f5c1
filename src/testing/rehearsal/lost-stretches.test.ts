// The content alignment behind the rehearsal's hearing of a line that lost bursts, on made-up content whose losses
// and gaps are known to the sample: where each loss lies, which run of silence it lies in, and when it cannot be.
import { describe, expect, it } from 'vitest'
import { type BlockedClip, lostStretches, type SilentGap } from './lost-stretches.ts'
import { BLOCK_SAMPLES, blockDigests, blockHeads, tailDigest } from './speech-content.ts'

/** Content with no zero sample, the same for the same seed. */
function content(samples: number, seed: number): Int16Array {
  const out = new Int16Array(samples)
  let state = seed
  for (let i = 0; i < samples; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0
    out[i] = ((state >>> 16) % 20_000) + 1
  }
  return out
}

function blocked(clip: Int16Array): BlockedClip {
  return {
    blocks: blockDigests(clip),
    heads: blockHeads(clip),
    tail: tailDigest(clip),
    contentSamples: clip.length,
  }
}

/** The clip's content without [from, to). */
const without = (clip: Int16Array, from: number, to: number) => {
  const out = new Int16Array(clip.length - (to - from))
  out.set(clip.subarray(0, from))
  out.set(clip.subarray(to), from)
  return out
}

const CLIP = content(40 * BLOCK_SAMPLES + 500, 7)

describe('lost stretches of a clip, by content', () => {
  it('places a loss at the run of silence that can hold it, not at a shorter relay gap just before it', () => {
    // The clip's next whole block begins 10 samples after the loss: found from the relay gap's place too.
    const [from, to] = [10 * BLOCK_SAMPLES + 300, 15 * BLOCK_SAMPLES - 10]
    const sound = without(CLIP, from, to)
    // A relay gap of 480 samples, 200 samples of sound before the loss's own run (as long as the loss, or longer).
    const gaps: SilentGap[] = [
      { at: from - 200, samples: 480 },
      { at: from, samples: to - from + 35 },
    ]
    expect(lostStretches(blocked(CLIP), sound, gaps, 'whole')).toEqual([{ start: from, end: to }])
  })

  it('finds two losses, and one in the last piece of the clip, after which no whole block follows', () => {
    const first = [5 * BLOCK_SAMPLES + 10, 7 * BLOCK_SAMPLES]
    const last = [CLIP.length - 300, CLIP.length - 40]
    const sound = without(
      without(CLIP, last[0] as number, last[1] as number),
      first[0] as number,
      first[1] as number,
    )
    const shift = (first[1] as number) - (first[0] as number)
    const gaps: SilentGap[] = [
      { at: first[0] as number, samples: 2 * BLOCK_SAMPLES },
      { at: (last[0] as number) - shift, samples: 300 },
    ]
    expect(lostStretches(blocked(CLIP), sound, gaps, 'whole')).toEqual([
      { start: first[0], end: first[1] },
      { start: last[0], end: last[1] },
    ])
  })

  it('refuses more lost than the silence could hold, an ordinary line, and another clip', () => {
    const sound = without(CLIP, 8 * BLOCK_SAMPLES, 20 * BLOCK_SAMPLES)
    expect(
      lostStretches(blocked(CLIP), sound, [{ at: 8 * BLOCK_SAMPLES, samples: 2_400 }], 'whole'),
    ).toBeNull()
    expect(
      lostStretches(blocked(CLIP), CLIP, [{ at: 8 * BLOCK_SAMPLES, samples: 2_400 }], 'whole'),
    ).toBeNull()
    const other = content(CLIP.length - 1_000, 8)
    expect(lostStretches(blocked(CLIP), other, [{ at: 100, samples: 50_000 }], 'whole')).toBeNull()
  })

  it('a beginning is pending until two blocks after the gap were heard, then it goes on with the clip', () => {
    // After the loss the clip's next whole block begins 460 samples into the sound heard after the gap.
    const [from, to] = [6 * BLOCK_SAMPLES + 123, 9 * BLOCK_SAMPLES + 500]
    const sound = without(CLIP, from, to)
    const gaps: SilentGap[] = [{ at: from, samples: to - from }]
    const heard = (samples: number) =>
      lostStretches(blocked(CLIP), sound.subarray(0, samples), gaps, 'beginning')
    expect(heard(from + BLOCK_SAMPLES)).toBe('pending')
    expect(heard(from + 2 * BLOCK_SAMPLES + 10)).toEqual([{ start: from, end: to }])
    // Something else after the gap: no longer pending once there is enough of it to tell.
    const other = new Int16Array(from + 3 * BLOCK_SAMPLES)
    other.set(CLIP.subarray(0, from))
    other.set(content(3 * BLOCK_SAMPLES, 9), from)
    expect(lostStretches(blocked(CLIP), other, gaps, 'beginning')).toBeNull()
  })
})
