// OpenAI text-to-speech for live recordings, through the same content-addressed cache CRAWL uses (a rerun of
// the generator pays once per distinct request). The client reads OPENAI_BASE_URL like any openai client.

import { resolve } from 'node:path'
import OpenAI from 'openai'
import { SpeechSynthesizer } from '../../../audio/synthesis.ts'
import { type SpeechEngine, SpeechEngineError } from './engine.ts'

const DEFAULT_WALK_TTS_MODEL = 'gpt-4o-mini-tts'
/** The reference's OPENAI_WALK_TTS_VOICE default is not documented; ours is a voice the caller side uses. */
const DEFAULT_WALK_TTS_VOICE = 'coral'

export interface OpenAiEngineOptions {
  apiKey: string | undefined
  model?: string
  voice?: string
  cacheDir?: string
  /** OPENAI_BASE_URL: where the API is (default: the openai client's). */
  baseURL?: string
  /** Test seam: a client pointed at a loopback server. */
  client?: OpenAI
}

export function openAiEngine(options: OpenAiEngineOptions): SpeechEngine {
  if (options.client === undefined && (options.apiKey === undefined || options.apiKey === '')) {
    throw new SpeechEngineError(
      'OPENAI_API_KEY is required to record with OpenAI text-to-speech; set it, or record offline with --engine espeak',
    )
  }
  const client =
    options.client ??
    new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    })
  const model = options.model ?? DEFAULT_WALK_TTS_MODEL
  const voice = options.voice ?? DEFAULT_WALK_TTS_VOICE
  const speech = new SpeechSynthesizer({
    client,
    cacheDir: options.cacheDir ?? resolve(process.cwd(), '.audio_cache', 'walk'),
  })
  return {
    engine: 'openai',
    model,
    voice,
    version: null,
    rateWpm: null,
    async synthesize(text) {
      return (await speech.synthesize({ text, model, voice })).samples
    },
  }
}
