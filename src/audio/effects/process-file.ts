// Apply an acoustic condition to a WAV file, streaming: the input is read, processed and written one chunk at a
// time, so memory stays flat whatever the recording's length (the 10-minute target in bench/audio-effects.ts).
// The output is a new mono 16-bit 24 kHz WAV of the same length; nothing is left at `output` on failure.

import { samplesForMs } from '../pcm.ts'
import { MonoWavReader, WavWriter } from '../wav-stream.ts'
import { type RealismOptions, RealismProcessor, type RealismSummary } from './realism.ts'

/** Files are read and written 1 s at a time (at least one effect frame) and processed frame by frame. */
const FILE_CHUNK_MS = 1000

export type ProcessedFile = RealismSummary & { durationMs: number }

export async function processWavFile(
  input: string,
  output: string,
  options: RealismOptions,
): Promise<ProcessedFile> {
  const processor = await RealismProcessor.create(options)
  try {
    const frameSamples = samplesForMs(processor.frameMs)
    const chunkSamples = frameSamples * Math.max(1, Math.floor(FILE_CHUNK_MS / processor.frameMs))
    await using reader = await MonoWavReader.open(input)
    const writer = await WavWriter.create(output, 1)
    try {
      const processed = new Int16Array(chunkSamples)
      for await (const chunk of reader.chunks(chunkSamples)) {
        for (let start = 0; start < chunk.length; start += frameSamples) {
          const frame = chunk.subarray(start, Math.min(chunk.length, start + frameSamples))
          processed.set(processor.process(frame), start)
        }
        await writer.write(processed.subarray(0, chunk.length))
      }
      await writer.close()
    } catch (error) {
      await writer.abort()
      throw error
    }
    return { ...processor.finish(), durationMs: reader.info.durationMs }
  } finally {
    processor.close()
  }
}
