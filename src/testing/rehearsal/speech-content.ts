// A sound's content, as the dress rehearsal's speech catalogue reads it: its samples that are not exactly zero.
// Digital silence is never content: a relay that ran dry for a moment (a peer's audio arriving a tick late, as in
// a RUN call on a busy machine) pads the stream with zeros mid-word, and the speech is still the same speech. A
// clip's content is remembered as short digests of 40 ms blocks, so a part of it is recognised at its position
// without keeping its samples.
import { hash } from 'node:crypto'
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'

/** A content block: 40 ms of samples that are not digital silence, a few hundred bytes of digests per second. */
export const BLOCK_SAMPLES = (SAMPLE_RATE_HZ * 40) / 1000

/** The samples from the first to the last one that is not exactly zero; null when all are. */
export function nonSilentExtent(samples: Int16Array): { start: number; end: number } | null {
  let start = 0
  while (start < samples.length && samples[start] === 0) start++
  if (start === samples.length) return null
  let end = samples.length
  while (end > start && samples[end - 1] === 0) end--
  return { start, end }
}

/**
 * The samples that are not exactly zero; `samples` itself when none is (callers only read it). Two plain loops:
 * `Int16Array.filter` calls its predicate per sample, and in the bundled round trip that was a ninth of the
 * rehearsal's CPU (15 times this).
 */
export function contentOf(samples: Int16Array): Int16Array {
  let count = 0
  for (let i = 0; i < samples.length; i++) if (samples[i] !== 0) count++
  if (count === samples.length) return samples
  const content = new Int16Array(count)
  let at = 0
  for (let i = 0; i < samples.length; i++) {
    const sample = samples[i] as number
    if (sample !== 0) content[at++] = sample
  }
  return content
}

/** contentOf, and where each content sample lies in `samples` (its index there, ascending). */
export function contentWithPositions(samples: Int16Array): { content: Int16Array; positions: Int32Array } {
  const content = contentOf(samples)
  const positions = new Int32Array(content.length)
  let at = 0
  for (let i = 0; i < samples.length; i++) if (samples[i] !== 0) positions[at++] = i
  return { content, positions }
}

/** How many content samples lie before index `sample` of the sound `positions` came from. */
export function contentBefore(positions: Int32Array, sample: number): number {
  let low = 0
  let high = positions.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((positions[middle] as number) < sample) low = middle + 1
    else high = middle
  }
  return low
}

/** The runs of digital silence at least `minSamples` long between the first and last sound of `samples`. */
export function silentRuns(samples: Int16Array, minSamples: number): { start: number; end: number }[] {
  const extent = nonSilentExtent(samples)
  if (extent === null) return []
  const runs: { start: number; end: number }[] = []
  let runStart = -1
  for (let i = extent.start; i < extent.end; i++) {
    if (samples[i] === 0) {
      if (runStart < 0) runStart = i
    } else {
      if (runStart >= 0 && i - runStart >= minSamples) runs.push({ start: runStart, end: i })
      runStart = -1
    }
  }
  return runs
}

/** The digest of the samples that are not exactly zero. */
export function fingerprintOf(samples: Int16Array): string {
  return contentFingerprint(contentOf(samples))
}

/** fingerprintOf for samples that are already content (contentOf's result), without filtering them again. */
export function contentFingerprint(content: Int16Array): string {
  return hash('sha256', new Uint8Array(content.buffer, content.byteOffset, content.byteLength), 'hex')
}

/** The short digest of one block of content. */
export function blockDigest(block: Int16Array): string {
  return hash('sha256', new Uint8Array(block.buffer, block.byteOffset, block.byteLength), 'base64url').slice(
    0,
    16,
  )
}

/** Short digests of `content` in whole BLOCK_SAMPLES blocks (a shorter last one left out). */
export function blockDigests(content: Int16Array): string[] {
  const digests: string[] = []
  for (let at = 0; at + BLOCK_SAMPLES <= content.length; at += BLOCK_SAMPLES) {
    digests.push(blockDigest(content.subarray(at, at + BLOCK_SAMPLES)))
  }
  return digests
}

/** The digest of `content` after its last whole block; null when it ends on a block boundary. */
export function tailDigest(content: Int16Array): string | null {
  const whole = Math.floor(content.length / BLOCK_SAMPLES) * BLOCK_SAMPLES
  return whole === content.length ? null : blockDigest(content.subarray(whole))
}

/**
 * The first two samples of the content block at `at`, as one number: where a block might begin, found without
 * hashing (the digest then says whether it does).
 */
export function headAt(content: Int16Array, at: number): number {
  return (((content[at] as number) & 0xffff) << 16) | ((content[at + 1] as number) & 0xffff)
}

/** headAt of each whole block of `content`. */
export function blockHeads(content: Int16Array): Int32Array {
  const heads = new Int32Array(Math.floor(content.length / BLOCK_SAMPLES))
  for (let block = 0; block < heads.length; block++) heads[block] = headAt(content, block * BLOCK_SAMPLES)
  return heads
}

/**
 * Where each content sample of a clip lies in the clip, kept compactly: the digital silence inside its extent as
 * runs (the content index of the sample after each run, and the zeros up to and including it).
 */
export interface ContentPlacement {
  /** Index of the clip's first sample that is not digital silence. */
  start: number
  after: Int32Array
  zerosThrough: Int32Array
}

export function contentPlacement(samples: Int16Array): ContentPlacement {
  const extent = nonSilentExtent(samples) ?? { start: 0, end: 0 }
  const after: number[] = []
  const zerosThrough: number[] = []
  let content = 0
  let zeros = 0
  let inRun = false
  for (let i = extent.start; i < extent.end; i++) {
    if (samples[i] === 0) {
      zeros++
      inRun = true
      continue
    }
    if (inRun) {
      after.push(content)
      zerosThrough.push(zeros)
      inRun = false
    }
    content++
  }
  return { start: extent.start, after: Int32Array.from(after), zerosThrough: Int32Array.from(zerosThrough) }
}

/** The clip sample at which content sample `index` lies. */
export function sampleOfContent(placement: ContentPlacement, index: number): number {
  let low = 0
  let high = placement.after.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((placement.after[middle] as number) <= index) low = middle + 1
    else high = middle
  }
  const zeros = low === 0 ? 0 : (placement.zerosThrough[low - 1] as number)
  return placement.start + index + zeros
}
