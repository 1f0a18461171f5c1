// CRAWL: a synthetic single-turn spoken request. The caller is the request spoken in the deterministic
// synthetic voice offline, or OpenAI text-to-speech live (cached); the conversation is the single-turn one.
import { join } from 'node:path'
import OpenAI from 'openai'
import { SpeechSynthesizer } from '../../audio/synthesis.ts'
import {
  CASSETTE_SPEECH_KEY,
  type CallerSpeech,
  recordedCallerSpeech,
} from '../../cassettes/replay-speech.ts'
import { cassetteFetch } from '../../cassettes/scope.ts'
import type { CrawlSettings } from '../../config/index.ts'
import { syntheticCallerSource, ttsCallerSource } from '../engine/caller-sources.ts'
import type { SingleTurnExecution, SingleTurnSettings } from '../engine/execution.ts'
import type { ObservedConversation } from '../engine/observed.ts'
import type { PhaseModule } from '../engine/phase-module.ts'
import { singleTurnDriver } from '../single-turn/driver.ts'
import { singleTurnGrader } from '../single-turn/grader.ts'
import { asCrawl, crawlDescription, speechCacheDirectory } from './description.ts'

/**
 * The caller speech of a recording is part of its cassettes: the speech is synthesised in the Vitest fixture,
 * before the scenario's cassette scope opens, so it is kept in `<cassettes>/speech/`. Recording always
 * synthesises anew (the folder holds what this recording streamed, never an older cache's audio); replay reads
 * only from there, with no client: a text it does not hold is a replay fact, not a failed request.
 */
function cassetteSpeechSynthesizer(settings: CrawlSettings): CallerSpeech | null {
  const replay = settings.replay.enabled
  if (!replay && !settings.execution.record) return null
  const cacheDir = join(settings.execution.cassettes_dir ?? 'cassettes', 'speech')
  if (replay) return recordedCallerSpeech(cacheDir)
  const apiKey = settings.credentials.openai_api_key
  if (apiKey === null) {
    throw new Error('OPENAI_API_KEY is required to record; or replay with LIVE_EVALS_MODE=replay')
  }
  return new SpeechSynthesizer({
    client: new OpenAI({ apiKey, fetch: cassetteFetch }),
    cacheDir,
    refresh: true,
    keyEndpoint: CASSETTE_SPEECH_KEY,
  })
}

/**
 * Live runs speak the request with OpenAI text-to-speech behind the cache (bypassed for entries older than this
 * run when `audio.refresh_audio` is set).
 */
function speechSynthesizer(settings: CrawlSettings): CallerSpeech {
  const forCassettes = cassetteSpeechSynthesizer(settings)
  if (forCassettes !== null) return forCassettes
  const apiKey = settings.credentials.openai_api_key
  if (apiKey === null) {
    throw new Error('OPENAI_API_KEY is required for a live run; or run offline with LIVE_EVALS_MODE=offline')
  }
  return new SpeechSynthesizer({
    client: new OpenAI({ apiKey, fetch: cassetteFetch }),
    cacheDir: speechCacheDirectory(settings),
    // Refresh ignores what was cached before this run; what this synthesizer makes is still shared by the file's tests.
    refresh: settings.audio.refresh_audio,
  })
}

export const crawlPhase: PhaseModule<ObservedConversation, SingleTurnExecution, SingleTurnSettings> = {
  ...crawlDescription,
  driver: singleTurnDriver,
  grader: singleTurnGrader,
  callerSource(settings) {
    const crawl = asCrawl(settings)
    return crawl.execution.mode === 'offline'
      ? syntheticCallerSource
      : ttsCallerSource(speechSynthesizer(crawl), crawl.models)
  },
}
