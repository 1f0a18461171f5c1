// Timeline-aligned stereo recording of one conversation: caller on the left, assistant on the right, both
// placed on the evaluation clock (ms since the session's time zero). Chunks are placed where they belong
// in time, not appended, so silence between turns and overlapping speech (barge-in) are kept as heard.
//
// Mixing: overlapping chunks on one channel are summed in 32-bit accumulators. If a channel's sum ever
// leaves the PCM16 range, that whole channel is scaled down once at render time: every sample keeps its
// relative level and nothing is clipped. Channels are scaled independently and the gains are reported,
// so artifacts can say when a recording was attenuated.

import { durationMs, SAMPLE_RATE_HZ, samplesForMs } from './pcm.ts'
import { encodeMonoWav, encodeStereoWav } from './wav.ts'

export type ConversationChannel = 'caller' | 'assistant'

export interface RenderedConversation {
  /** Both channels have the same length (the later channel's end), padded with silence. */
  caller: Int16Array
  assistant: Int16Array
  durationMs: number
  /** Gain applied to each channel to avoid clipping; 1 when the channel fit as placed. */
  gains: { caller: number; assistant: number }
}

class ChannelAccumulator {
  samples = new Int32Array(0)
  /** Samples actually written (the channel's own end). */
  length = 0
  /** Where the next `play()` chunk may start at the earliest (playout cursor). */
  cursor = 0

  add(startSample: number, chunk: Int16Array): void {
    const end = startSample + chunk.length
    this.#reserve(end)
    const samples = this.samples
    if (startSample >= this.length)
      samples.set(chunk, startSample) // nothing there yet to mix with
    else {
      for (let i = 0; i < chunk.length; i++) {
        const index = startSample + i
        samples[index] = (samples[index] as number) + (chunk[i] as number)
      }
    }
    this.length = Math.max(this.length, end)
  }

  #reserve(size: number): void {
    if (size <= this.samples.length) return
    // Grow geometrically so a long call placed chunk by chunk costs amortised O(n).
    const grown = new Int32Array(Math.max(size, this.samples.length * 2, SAMPLE_RATE_HZ))
    grown.set(this.samples)
    this.samples = grown
  }

  render(length: number): { pcm: Int16Array; gain: number } {
    // PCM16 reaches -32768 but only +32767: a channel is scaled down only when a sum left that range, so one
    // full-scale negative sample (as streamed) is kept exactly.
    let highest = 0
    let lowest = 0
    const samples = this.samples
    for (let i = 0; i < this.length; i++) {
      const value = samples[i] as number
      if (value > highest) highest = value
      else if (value < lowest) lowest = value
    }
    const gain = Math.min(1, highest > 32767 ? 32767 / highest : 1, lowest < -32768 ? -32768 / lowest : 1)
    const pcm = new Int16Array(length)
    // Unscaled, every sum fits PCM16, so one block conversion copies it exactly.
    if (gain === 1) pcm.set(this.samples.subarray(0, this.length))
    else for (let i = 0; i < this.length; i++) pcm[i] = Math.round((this.samples[i] as number) * gain)
    return { pcm, gain }
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
    const { caller, assistant } = this.render()
    return encodeStereoWav(caller, assistant, this.sampleRateHz)
  }

  /** One channel alone as mono WAV bytes, up to that channel's own end (input.wav / output.wav). */
  toMonoWav(channel: ConversationChannel): Uint8Array {
    const accumulator = this.#channels[channel]
    return encodeMonoWav(accumulator.render(accumulator.length).pcm, this.sampleRateHz)
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
