// Which engine records: the one asked for, else OpenAI text-to-speech in live mode and espeak-ng offline.
// Live mode is LIVE_EVALS_MODE=live, or no mode set and OPENAI_API_KEY present (unlike the evaluations, which run
// offline unless LIVE_EVALS_MODE=live: a key alone is taken as asking for real recordings); offline without
// espeak-ng is an error naming the package to install.

import type { SpeechEngine, SpeechEngineName } from './engine.ts'
import { espeakEngine } from './espeak.ts'
import { openAiEngine } from './openai.ts'

export interface EngineChoice {
  engine?: SpeechEngineName
  voice?: string
  rateWpm?: number
  ttsModel?: string
  /** OpenAI only: the text-to-speech cache (default .audio_cache/walk in the working directory). */
  cacheDir?: string
  env: Record<string, string | undefined>
}

function liveMode(env: Record<string, string | undefined>): boolean {
  const mode = env.LIVE_EVALS_MODE?.trim()
  if (mode === 'live') return true
  if (mode === 'offline') return false
  return (env.OPENAI_API_KEY ?? '') !== ''
}

export async function chooseSpeechEngine(choice: EngineChoice): Promise<SpeechEngine> {
  const name = choice.engine ?? (liveMode(choice.env) ? 'openai' : 'espeak')
  if (name === 'openai') {
    return openAiEngine({
      apiKey: choice.env.OPENAI_API_KEY,
      model: choice.ttsModel ?? choice.env.OPENAI_TTS_MODEL,
      voice: choice.voice ?? choice.env.OPENAI_WALK_TTS_VOICE,
      ...(choice.cacheDir === undefined ? {} : { cacheDir: choice.cacheDir }),
      ...(choice.env.OPENAI_BASE_URL ? { baseURL: choice.env.OPENAI_BASE_URL } : {}),
    })
  }
  return espeakEngine({
    ...(choice.voice === undefined ? {} : { voice: choice.voice }),
    ...(choice.rateWpm === undefined ? {} : { rateWpm: choice.rateWpm }),
  })
}
