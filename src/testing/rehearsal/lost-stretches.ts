// A known clip heard with stretches of it lost in place: a line that dropped packets (the harness's uplink_loss
// fault zeroes a window of the caller's audio and keeps its length). Found by content, so whatever digital silence
// a relay inserted into the line besides (its peer's audio a tick late) does not matter: the sound's content is
// the clip's with the lost stretches taken out. Each loss lies where a run of silence at least as long as it lies
// in the sound (zeroing keeps the lost samples' places, and a relay only adds to them); after it the clip goes on,
// and the sound shows one of the clip's blocks again within a block, found by the blocks' first samples and
// confirmed by their digests, or the clip's shorter last piece when no whole block is left.
// What is never compared: the content between a block that differs and where the clip is found again (under two
// blocks per loss), and the end of a line that lost the middle of its last piece; the lengths still have to add up.
import { BLOCK_SAMPLES, blockDigest, headAt } from './speech-content.ts'

/** What the alignment needs of a clip: its content's block digests, their first samples, its last piece, length. */
export interface BlockedClip {
  blocks: readonly string[]
  heads: Int32Array
  /** Digest of the content after the last whole block (shorter than a block); null when there is none. */
  tail: string | null
  contentSamples: number
}

/** A run of digital silence inside the sound: the content index of the sample after it, and its length in samples. */
export interface SilentGap {
  at: number
  samples: number
}

/** A stretch of the clip's content the sound lacks, as content indices [start, end). */
export interface LostStretch {
  start: number
  end: number
}

/**
 * The stretches of `clip`'s content missing from `content` (a sound's), when the sound is the clip (`whole`) or
 * its beginning (`beginning`) with at least one stretch lost, each where one of `gaps` lies (ascending).
 * `pending`: a beginning whose sound after a gap is still too short to tell whether the clip goes on. Null: the
 * sound is not so.
 */
export function lostStretches(
  clip: BlockedClip,
  content: Int16Array,
  gaps: readonly SilentGap[],
  span: 'whole' | 'beginning',
): LostStretch[] | 'pending' | null {
  // A whole clip that lost something has less content than the clip (an ordinary line has as much: no hashing).
  if (span === 'whole' && content.length >= clip.contentSamples) return null
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
    const resumed = resumption(clip, content, gaps, { from, block, shift })
    if (resumed === null) {
      if (span === 'whole') return withLastLoss(lost, lastLoss(clip, content, gaps, { from, shift }))
      const tooSoon = gaps.some(
        (gap) =>
          gap.at >= from && gap.at <= from + BLOCK_SAMPLES && content.length < gap.at + 2 * BLOCK_SAMPLES,
      )
      return tooSoon ? 'pending' : null
    }
    lost.push(resumed.stretch)
    shift += resumed.stretch.end - resumed.stretch.start
    block = resumed.block + 1
  }
  if (span === 'whole') {
    const from = block * BLOCK_SAMPLES - shift
    if (block < clip.blocks.length || content.length + shift < clip.contentSamples) {
      return withLastLoss(lost, lastLoss(clip, content, gaps, { from, shift }))
    }
    const adds = content.length + shift === clip.contentSamples
    return adds && lost.length > 0 && endsLikeClip(clip, content) ? lost : null
  }
  if (content.length + shift > clip.contentSamples) return null
  if (lost.length > 0) return lost
  // Nothing shows a loss yet: a run of silence near the end may still be one.
  const last = gaps.at(-1)
  return last !== undefined && content.length < last.at + 2 * BLOCK_SAMPLES ? 'pending' : null
}

/**
 * Where the clip goes on after a stretch lost at a gap in the block at `from` (which does not match): the stretch
 * and the clip block the sound shows next.
 */
function resumption(
  clip: BlockedClip,
  content: Int16Array,
  gaps: readonly SilentGap[],
  at: { from: number; block: number; shift: number },
): { stretch: LostStretch; block: number } | null {
  for (const gap of gaps) {
    if (gap.at < at.from || gap.at > at.from + BLOCK_SAMPLES) continue
    // Past the loss the clip's next whole block begins within a block of the gap.
    const last = Math.min(gap.at + BLOCK_SAMPLES, content.length - BLOCK_SAMPLES + 1)
    for (let sample = gap.at; sample < last; sample++) {
      const head = headAt(content, sample)
      // Only blocks a loss that fits in the gap can reach (a long answer has a thousand blocks, a gap a few).
      const reach = Math.min(
        clip.blocks.length - 1,
        Math.floor((at.shift + sample + gap.samples) / BLOCK_SAMPLES),
      )
      for (let next = at.block + 1; next <= reach; next++) {
        if (clip.heads[next] !== head) continue
        const length = next * BLOCK_SAMPLES - at.shift - sample
        if (length <= 0) continue
        if (blockDigest(content.subarray(sample, sample + BLOCK_SAMPLES)) === clip.blocks[next]) {
          const start = gap.at + at.shift
          return { stretch: { start, end: start + length }, block: next }
        }
      }
    }
  }
  return null
}

/**
 * A whole line's last loss, when no whole block of the clip follows it: it reaches into the clip's last block or
 * its last piece. Its length is what the content still lacks; the sound after it must be the clip's last piece
 * when it is that long.
 */
function lastLoss(
  clip: BlockedClip,
  content: Int16Array,
  gaps: readonly SilentGap[],
  at: { from: number; shift: number },
): LostStretch | null {
  const length = clip.contentSamples - at.shift - content.length
  if (length <= 0) return null
  const tailSamples = clip.contentSamples - clip.blocks.length * BLOCK_SAMPLES
  for (const gap of gaps) {
    if (gap.at < at.from || gap.at > at.from + BLOCK_SAMPLES || gap.samples < length) continue
    const after = content.length - gap.at
    // A whole block's worth and more after the loss: resumption would have found the clip going on there.
    if (after > BLOCK_SAMPLES + tailSamples) continue
    if (after >= tailSamples && !endsLikeClip(clip, content)) continue
    const start = gap.at + at.shift
    return { start, end: start + length }
  }
  return null
}

function withLastLoss(lost: readonly LostStretch[], last: LostStretch | null): LostStretch[] | null {
  return last === null ? null : [...lost, last]
}

/** Whether `content` ends with the clip's last piece (true when the clip has none). */
function endsLikeClip(clip: BlockedClip, content: Int16Array): boolean {
  if (clip.tail === null) return true
  const tailSamples = clip.contentSamples - clip.blocks.length * BLOCK_SAMPLES
  return blockDigest(content.subarray(content.length - tailSamples)) === clip.tail
}
