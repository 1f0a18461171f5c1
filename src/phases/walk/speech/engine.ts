// The text-to-speech engines `walk generate-audio` can record a request with. Each gives mono PCM16 at
// 24 kHz, the transport format, and says what it is so the recording's provenance can name it exactly.

export const SPEECH_ENGINES = ['espeak', 'openai'] as const
export type SpeechEngineName = (typeof SPEECH_ENGINES)[number]

export interface SpeechEngine {
  /** As the provenance names it: `espeak-ng` or `openai`. */
  readonly engine: 'espeak-ng' | 'openai'
  /** The reference's `tts_model`: the OpenAI speech model, or `espeak-ng <version>`. */
  readonly model: string
  readonly voice: string
  /** espeak-ng's version; null for a hosted model, whose version the API does not report. */
  readonly version: string | null
  /** Speaking rate in words per minute when the engine takes one (espeak-ng); null otherwise. */
  readonly rateWpm: number | null
  /** The text spoken: mono PCM16 at 24000 Hz. */
  synthesize(text: string): Promise<Int16Array>
}

/** Speech could not be made: the engine is missing, failed, or gave no audio. The message says what to do. */
export class SpeechEngineError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'SpeechEngineError'
  }
}
