// Reading a run's own PCM16 WAV artifacts (mono or the stereo conversation) for the report's timeline: chunk walk
// with bounds, so a damaged or foreign file yields a reason instead of a crash.

export interface PcmChannels {
  sampleRateHz: number
  /** One Int16Array per channel (caller left, assistant right for the conversation). */
  channels: Int16Array[]
  durationMs: number
}

export type PcmReadResult = { ok: true; audio: PcmChannels } | { ok: false; reason: string }

export function readPcm16Wav(bytes: Uint8Array): PcmReadResult {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const ascii = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4))
  if (bytes.byteLength < 12 || ascii(0) !== 'RIFF' || ascii(8) !== 'WAVE') {
    return { ok: false, reason: 'not a RIFF/WAVE file' }
  }
  let format: { channels: number; sampleRateHz: number; bits: number; tag: number } | null = null
  let offset = 12
  while (offset + 8 <= bytes.byteLength) {
    const id = ascii(offset)
    const size = view.getUint32(offset + 4, true)
    const body = offset + 8
    if (id === 'fmt ' && size >= 16 && body + 16 <= bytes.byteLength) {
      format = {
        tag: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRateHz: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      }
    }
    if (id === 'data') {
      if (format === null) return { ok: false, reason: 'the data chunk comes before any fmt chunk' }
      if (format.tag !== 1 || format.bits !== 16 || format.channels < 1 || format.channels > 2) {
        return {
          ok: false,
          reason: `not 16-bit PCM mono or stereo (format ${format.tag}, ${format.bits} bits)`,
        }
      }
      if (format.sampleRateHz <= 0) return { ok: false, reason: 'the sample rate is 0' }
      const available = Math.min(size, bytes.byteLength - body)
      const frames = Math.floor(available / (2 * format.channels))
      const channels = Array.from({ length: format.channels }, () => new Int16Array(frames))
      for (let frame = 0; frame < frames; frame++) {
        for (let channel = 0; channel < format.channels; channel++) {
          ;(channels[channel] as Int16Array)[frame] = view.getInt16(
            body + (frame * format.channels + channel) * 2,
            true,
          )
        }
      }
      return {
        ok: true,
        audio: {
          sampleRateHz: format.sampleRateHz,
          channels,
          durationMs: (frames * 1000) / format.sampleRateHz,
        },
      }
    }
    offset = body + size + (size % 2)
  }
  return { ok: false, reason: 'no data chunk' }
}

/** The loudest absolute sample in each of `buckets` equal slices, scaled to [0, 1]: a waveform outline. */
export function peakEnvelope(samples: Int16Array, buckets: number): number[] {
  const envelope: number[] = []
  if (samples.length === 0) return envelope
  const size = samples.length / buckets
  for (let bucket = 0; bucket < buckets; bucket++) {
    let peak = 0
    const end = Math.min(samples.length, Math.floor((bucket + 1) * size))
    for (let index = Math.floor(bucket * size); index < end; index++) {
      const value = Math.abs(samples[index] as number)
      if (value > peak) peak = value
    }
    envelope.push(peak / 32768)
  }
  return envelope
}
