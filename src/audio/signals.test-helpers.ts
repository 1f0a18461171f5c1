// Test builders for the audio tests: tones, levels, correlation and the committed real-speech recording.
import path from 'node:path'
import { readMonoWavFile } from './wav.ts'

/** The committed espeak-ng recording (two sentences, digital silence between; see test-assets/). */
export const CALLER_REQUEST_WAV = path.join(import.meta.dirname, 'test-assets', 'caller-request.wav')

export async function callerRequest(): Promise<Int16Array> {
  return (await readMonoWavFile(CALLER_REQUEST_WAV)).samples
}

/** A sine tone at `hz` with peak `amplitude`, `ms` long at 24 kHz. */
export function tone(hz: number, ms: number, amplitude = 8000): Int16Array {
  const length = Math.round(ms * 24)
  const out = new Int16Array(length)
  for (let i = 0; i < length; i++) out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / 24000))
  return out
}

/** RMS in PCM16 units of samples[from, to). */
export function rms(samples: Int16Array, from = 0, to = samples.length): number {
  let energy = 0
  for (let i = from; i < to; i++) energy += (samples[i] as number) ** 2
  return Math.sqrt(energy / Math.max(1, to - from))
}

/** The lag in [minLag, maxLag] at which sum(a[i + lag] · b[i]) is largest. */
export function peakLag(a: ArrayLike<number>, b: ArrayLike<number>, minLag: number, maxLag: number): number {
  let best = minLag
  let bestValue = Number.NEGATIVE_INFINITY
  for (let lag = minLag; lag <= maxLag; lag++) {
    let sum = 0
    for (let i = 0; i + lag < a.length && i < b.length; i++) sum += (a[i + lag] as number) * (b[i] as number)
    if (sum > bestValue) {
      bestValue = sum
      best = lag
    }
  }
  return best
}

/** Feed `samples` through `process` in chunks cycling through `sizes`; returns the concatenated output. */
export function inChunks(
  samples: Int16Array,
  sizes: readonly number[],
  process: (chunk: Int16Array) => Int16Array,
): Int16Array {
  const out = new Int16Array(samples.length)
  let offset = 0
  for (let i = 0; offset < samples.length; i++) {
    const size = sizes[i % sizes.length] as number
    const chunk = samples.subarray(offset, Math.min(samples.length, offset + size))
    out.set(process(chunk), offset)
    offset += chunk.length
  }
  return out
}

export function sameBytes(a: Int16Array, b: Int16Array): boolean {
  return (
    a.length === b.length &&
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
      Buffer.from(b.buffer, b.byteOffset, b.byteLength),
    )
  )
}
