// Timeline-aligned stereo recording of one conversation: caller on the left, assistant on the right, both
// placed on the evaluation clock (ms since the session's time zero). Chunks are placed where they belong
// in time, not appended, so silence between turns and overlapping speech (barge-in) are kept as heard.
//
// Mixing: overlapping chunks on one channel are summed in 32-bit accumulators. If a channel's sum ever
// leaves the PCM16 range, that whole channel is scaled down once at render time: every sample keeps its
// relative level and nothing is clipped. Channels are scaled independently and the gains are reported,
// so artifacts can say when a recording was attenuated.

import { BYTES_PER_SAMPLE, durationMs, HOST_IS_LITTLE_ENDIAN, SAMPLE_RATE_HZ, samplesForMs } from './pcm.ts'
import { encodeMonoWav, encodeStereoWav, pcm16WavHeader, WAV_HEADER_BYTES } from './wav.ts'

export type ConversationChannel = 'caller' | 'assistant'

export interface RenderedConversation {
  /** Both channels have the same length (the later channel's end), padded with silence. */
  caller: Int16Array
  assistant: Int16Array
  durationMs: number
  /** Gain applied to each channel to avoid clipping; 1 when the channel fit as placed. */
  gains: { caller: number; assistant: number }
}

/**
 * Samples per storage block (about 0.34 s at 24 kHz, 16 KiB). A channel is a list of these rather than one array
 * grown by doubling: in a real-time run every call grew its array at the same moment, and those copies of
 * megabytes (and the collections they set off) made every call's next frames late at once. 32 KiB stays under the
 * C allocator's mmap threshold (128 KiB): a block comes from its heap, not fresh pages zero-filled on first touch
 * (a 128 KiB block cost 33 µs to allocate and its page faults as much again, 32 KiB 4 µs).
 *
 * A block holds PCM16 until a mixed sum leaves that range, and only then is widened to 32 bits: a call's channels
 * are megabytes held to its end, and 32-bit blocks for sums that almost never overflow doubled the memory V8
 * counts against its external limit, whose every crossing is a full collection that stalls all real-time calls.
 */
const BLOCK_SAMPLES = 8_192

type Block = Int16Array | Int32Array

class ChannelAccumulator {
  /** Block k holds samples [k·BLOCK_SAMPLES, (k+1)·BLOCK_SAMPLES); undefined = never written (silence). */
  readonly #blocks: (Block | undefined)[] = []
  /** Samples actually written (the channel's own end). */
  length = 0
  /** Where the next `play()` chunk may start at the earliest (playout cursor). */
  cursor = 0
  /** The gain found by the last scan, and how many chunks had been added then (renders repeat: see #gain). */
  #scanned: { chunks: number; gain: number } | null = null
  #chunks = 0

  add(startSample: number, chunk: Int16Array): void {
    this.#chunks += 1
    const end = startSample + chunk.length
    // Nothing is there yet to mix with from the channel's end on: that part is copied, only the part before it
    // summed (a real-time frame placed a sample or two early overlaps the last one by that much, not by 480).
    const overlap = Math.min(chunk.length, Math.max(0, this.length - startSample))
    let from = 0
    while (from < chunk.length) {
      const at = startSample + from
      const index = Math.floor(at / BLOCK_SAMPLES)
      const offset = at - index * BLOCK_SAMPLES
      const summed = from < overlap
      const count = Math.min((summed ? overlap : chunk.length) - from, BLOCK_SAMPLES - offset)
      let block = this.#blocks[index]
      if (block === undefined) {
        block = new Int16Array(BLOCK_SAMPLES)
        this.#blocks[index] = block
      }
      if (!summed) block.set(chunk.subarray(from, from + count), offset)
      else
        for (let i = 0; i < count; i++) {
          const sum = (block[offset + i] as number) + (chunk[from + i] as number)
          if ((sum > 32767 || sum < -32768) && block instanceof Int16Array) block = this.#widen(index, block)
          block[offset + i] = sum
        }
      from += count
    }
    this.length = Math.max(this.length, end)
  }

  /** The block at `index` as 32-bit sums, same values (a sum about to leave PCM16). */
  #widen(index: number, block: Int16Array): Int32Array {
    const wide = new Int32Array(block)
    this.#blocks[index] = wide
    return wide
  }

  render(length: number): { pcm: Int16Array; gain: number } {
    const pcm = new Int16Array(length)
    return { pcm, gain: this.renderInto(pcm) }
  }

  /** The channel's samples into `pcm` (silence past the channel's end is left as `pcm` has it); returns the gain. */
  renderInto(pcm: Int16Array): number {
    const gain = this.#gain()
    this.#eachBlock((block, count, offset) => {
      // Unscaled, every sum fits PCM16, so one block conversion copies it exactly.
      if (gain === 1) pcm.set(block.subarray(0, count), offset)
      else for (let i = 0; i < count; i++) pcm[offset + i] = Math.round((block[i] as number) * gain)
    })
    return gain
  }

  /**
   * renderInto for one channel of interleaved frames: sample i goes to `frames[i * stride + at]` (a stereo WAV's
   * data is filled channel by channel, without rendering each channel to its own array first). Same samples.
   */
  renderInterleaved(frames: Int16Array, at: number, stride: number): number {
    const gain = this.#gain()
    this.#eachBlock((block, count, offset) => {
      let out = offset * stride + at
      if (gain === 1) for (let i = 0; i < count; i++, out += stride) frames[out] = block[i] as number
      else
        for (let i = 0; i < count; i++, out += stride) frames[out] = Math.round((block[i] as number) * gain)
    })
    return gain
  }

  /**
   * The channel's gain. PCM16 reaches -32768 but only +32767: a channel is scaled down only when a sum left that
   * range, so one full-scale negative sample (as streamed) is kept exactly. A finished call is rendered three or
   * four times (its speech intervals, input.wav or output.wav, conversation.wav): the scan runs once per state.
   */
  #gain(): number {
    if (this.#scanned?.chunks === this.#chunks) return this.#scanned.gain
    let highest = 0
    let lowest = 0
    this.#eachBlock((block, count) => {
      // A PCM16 block cannot leave the range, so only widened blocks (a sum that did) are scanned: the gain is
      // the same, and reading every sample of every block was a twentieth of an offline CRAWL's CPU.
      if (block instanceof Int16Array) return
      for (let i = 0; i < count; i++) {
        const value = block[i] as number
        if (value > highest) highest = value
        else if (value < lowest) lowest = value
      }
    })
    const gain = Math.min(1, highest > 32767 ? 32767 / highest : 1, lowest < -32768 ? -32768 / lowest : 1)
    this.#scanned = { chunks: this.#chunks, gain }
    return gain
  }

  /** Each written block with how many of its samples lie before the channel's end and where it starts. */
  #eachBlock(visit: (block: Block, count: number, offset: number) => void): void {
    for (let index = 0; index < this.#blocks.length; index++) {
      const block = this.#blocks[index]
      const offset = index * BLOCK_SAMPLES
      if (block !== undefined) visit(block, Math.min(BLOCK_SAMPLES, this.length - offset), offset)
    }
  }
}

export class ConversationRecorder {
  readonly sampleRateHz: number
  readonly #channels: Record<ConversationChannel, ChannelAccumulator> = {
    caller: new ChannelAccumulator(),
    assistant: new ChannelAccumulator(),
  }

  constructor(options: { sampleRateHz?: number } = {}) {
    this.sampleRateHz = options.sampleRateHz ?? SAMPLE_RATE_HZ
  }

  /**
   * Place a chunk exactly at `atMs` on the clock, mixing with whatever is already there. Use it for audio
   * whose time is known, such as caller frames at their scheduled send times.
   */
  place(channel: ConversationChannel, atMs: number, samples: Int16Array): void {
    const start = this.#sampleIndex(atMs, channel)
    const accumulator = this.#channels[channel]
    accumulator.add(start, samples)
    accumulator.cursor = Math.max(accumulator.cursor, start + samples.length)
  }

  /**
   * Queue a chunk for playback that arrived at `arrivalMs`: it starts at the arrival time or when the
   * channel's previous chunk ends, whichever is later. Assistant audio arrives faster than real time,
   * so its chunks play back to back, as a listener would hear them. Returns the start time used.
   */
  play(channel: ConversationChannel, arrivalMs: number, samples: Int16Array): number {
    const accumulator = this.#channels[channel]
    const start = Math.max(this.#sampleIndex(arrivalMs, channel), accumulator.cursor)
    accumulator.add(start, samples)
    accumulator.cursor = start + samples.length
    return durationMs(start, this.sampleRateHz)
  }

  /** End of the later channel, in ms. */
  get durationMs(): number {
    return durationMs(this.#lengthSamples(), this.sampleRateHz)
  }

  /** Both channels padded with silence to the same length, mixed without clipping. */
  render(): RenderedConversation {
    const length = this.#lengthSamples()
    const caller = this.#channels.caller.render(length)
    const assistant = this.#channels.assistant.render(length)
    return {
      caller: caller.pcm,
      assistant: assistant.pcm,
      durationMs: durationMs(length, this.sampleRateHz),
      gains: { caller: caller.gain, assistant: assistant.gain },
    }
  }

  /** Stereo WAV bytes (conversation.wav): caller left, assistant right. */
  toStereoWav(): Uint8Array {
    if (!HOST_IS_LITTLE_ENDIAN) {
      const { caller, assistant } = this.render()
      return encodeStereoWav(caller, assistant, this.sampleRateHz)
    }
    // Rendered straight into the file's interleaved frames (see toMonoWav): no per-channel copies of the call.
    const length = this.#lengthSamples()
    const dataBytes = length * 2 * BYTES_PER_SAMPLE
    const bytes = new Uint8Array(WAV_HEADER_BYTES + dataBytes)
    bytes.set(pcm16WavHeader(2, this.sampleRateHz, dataBytes))
    const frames = new Int16Array(bytes.buffer, WAV_HEADER_BYTES, length * 2)
    this.#channels.caller.renderInterleaved(frames, 0, 2)
    this.#channels.assistant.renderInterleaved(frames, 1, 2)
    return bytes
  }

  /** One channel alone as mono WAV bytes, up to that channel's own end (input.wav / output.wav). */
  toMonoWav(channel: ConversationChannel): Uint8Array {
    const accumulator = this.#channels[channel]
    if (!HOST_IS_LITTLE_ENDIAN)
      return encodeMonoWav(accumulator.render(accumulator.length).pcm, this.sampleRateHz)
    // Rendered straight into the file's bytes: on this host a sample's memory is PCM16 as WAV stores it, so the
    // channel is converted once, not rendered and then copied (a call's channel is megabytes).
    const dataBytes = accumulator.length * BYTES_PER_SAMPLE
    const bytes = new Uint8Array(WAV_HEADER_BYTES + dataBytes)
    bytes.set(pcm16WavHeader(1, this.sampleRateHz, dataBytes))
    accumulator.renderInto(new Int16Array(bytes.buffer, WAV_HEADER_BYTES, accumulator.length))
    return bytes
  }

  #lengthSamples(): number {
    return Math.max(this.#channels.caller.length, this.#channels.assistant.length)
  }

  #sampleIndex(atMs: number, channel: ConversationChannel): number {
    if (!Number.isFinite(atMs) || atMs < 0) {
      throw new Error(
        `Conversation audio for the ${channel} channel must be placed at a finite time >= 0 ms on the ` +
          `session clock; got ${atMs}`,
      )
    }
    return samplesForMs(atMs, this.sampleRateHz)
  }
}
