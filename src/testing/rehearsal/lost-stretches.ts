// A known clip heard with stretches of it lost in place: a line that dropped packets (the harness's uplink_loss
// fault zeroes a window of the caller's audio and keeps its length). Found by content, so whatever digital silence
// a relay inserted into the line besides (its peer's audio a tick late) does not matter: the sound's content is
// the clip's with the lost stretches taken out. Each loss begins where a run of silence begins in the sound; after
// it the clip goes on, and the sound shows one of the clip's blocks again within a block, found by the blocks'
// first samples and confirmed by their digests.
import { BLOCK_SAMPLES, blockDigest, headAt } from './speech-content.ts'

/** What the alignment needs of a clip: its content's block digests, their first samples and its length. */
export interface BlockedClip {
  blocks: readonly string[]
  heads: Int32Array
  contentSamples: number
}

/** A stretch of the clip's content the sound lacks, as content indices [start, end). */
export interface LostStretch {
  start: number
  end: number
}

/**
 * The stretches of `clip`'s content missing from `content` (a sound's), when the sound is the clip (`whole`) or
 * its beginning (`beginning`) with at least one stretch lost, each where a run of silence begins in the sound
 * (`gapStarts`: the sound's content indices after which such a run lies, ascending). `pending`: a beginning whose
 * sound after such a run is still too short to tell whether the clip goes on. Null: the sound is not so.
 */
export function lostStretches(
  clip: BlockedClip,
  content: Int16Array,
  gapStarts: readonly number[],
  span: 'whole' | 'beginning',
): LostStretch[] | 'pending' | null {
  const lost: LostStretch[] = []
  // The clip's content index minus the sound's, past the stretches lost so far.
  let shift = 0
  let block = 0
  while (block < clip.blocks.length) {
    const from = block * BLOCK_SAMPLES - shift
    if (from + BLOCK_SAMPLES > content.length) break
    if (blockDigest(content.subarray(from, from + BLOCK_SAMPLES)) === clip.blocks[block]) {
      block++
      continue
    }
    const resumed = resumption(clip, content, gapStarts, { from, block, shift })
    if (resumed === null) {
      const tooSoon = gapStarts.some(
        (gap) => gap >= from && gap <= from + BLOCK_SAMPLES && content.length < gap + 2 * BLOCK_SAMPLES,
      )
      return span === 'beginning' && tooSoon ? 'pending' : null
    }
    lost.push({ start: resumed.gap + shift, end: resumed.gap + shift + resumed.length })
    shift += resumed.length
    block = resumed.block + 1
  }
  if (span === 'whole') {
    const all = block === clip.blocks.length && content.length + shift === clip.contentSamples
    return all && lost.length > 0 ? lost : null
  }
  if (content.length + shift > clip.contentSamples) return null
  if (lost.length > 0) return lost
  // Nothing shows a loss yet: a run of silence near the end may still be one.
  const last = gapStarts.at(-1)
  return last !== undefined && content.length < last + 2 * BLOCK_SAMPLES ? 'pending' : null
}

/**
 * Where the clip goes on after a stretch lost from a run of silence that begins in the block at `from` (which
 * does not match): the run's content index, the stretch's length and the clip block the sound shows next.
 */
function resumption(
  clip: BlockedClip,
  content: Int16Array,
  gapStarts: readonly number[],
  at: { from: number; block: number; shift: number },
): { gap: number; length: number; block: number } | null {
  for (const gap of gapStarts) {
    if (gap < at.from || gap > at.from + BLOCK_SAMPLES) continue
    // Past the loss the clip's next whole block begins within a block of the gap.
    const last = Math.min(gap + BLOCK_SAMPLES, content.length - BLOCK_SAMPLES + 1)
    for (let sample = gap; sample < last; sample++) {
      const head = headAt(content, sample)
      for (let next = at.block + 1; next < clip.blocks.length; next++) {
        if (clip.heads[next] !== head) continue
        const length = next * BLOCK_SAMPLES - at.shift - sample
        if (length <= 0) continue
        if (blockDigest(content.subarray(sample, sample + BLOCK_SAMPLES)) === clip.blocks[next]) {
          return { gap, length, block: next }
        }
      }
    }
  }
  return null
}
