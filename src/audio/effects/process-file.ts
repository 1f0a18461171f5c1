// Apply an acoustic condition to a WAV file, streaming: the input is read, processed and written one chunk at a
// time, so memory stays flat whatever the recording's length (the 10-minute target in bench/audio-effects.ts).
// The output is a new mono 16-bit 24 kHz WAV of the same length; nothing is left at `output` on failure.

import { SAMPLES_PER_FRAME } from '../pcm.ts'
import { MonoWavReader, WavWriter } from '../wav-stream.ts'
import { type RealismOptions, RealismProcessor, type RealismResult } from './realism.ts'

/** Chunk size for files: 50 transport frames (1 s). The bytes are the same for any size. */
const FILE_CHUNK_SAMPLES = SAMPLES_PER_FRAME * 50

export type ProcessedFile = Omit<RealismResult, 'samples'> & { durationMs: number }

export async function processWavFile(
  input: string,
  output: string,
  options: RealismOptions,
): Promise<ProcessedFile> {
  const processor = await RealismProcessor.create(options)
  try {
    await using reader = await MonoWavReader.open(input)
    const writer = await WavWriter.create(output, 1)
    try {
      for await (const chunk of reader.chunks(FILE_CHUNK_SAMPLES))
        await writer.write(processor.process(chunk))
      await writer.close()
    } catch (error) {
      await writer.abort()
      throw error
    }
    return {
      metadata: processor.metadata(),
      callerSpeechIntervals: processor.callerSpeechIntervals(),
      latencyMs: processor.latencyMs,
      durationMs: reader.info.durationMs,
    }
  } finally {
    processor.close()
  }
}
