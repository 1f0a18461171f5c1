// CRAWL: a synthetic single-turn spoken request. The caller is the request spoken in the deterministic
// synthetic voice offline, or OpenAI text-to-speech live (cached); the conversation is the single-turn one.
import { join } from 'node:path'
import OpenAI from 'openai'
import { SpeechSynthesizer } from '../../audio/synthesis.ts'
import { cassetteFetch } from '../../cassettes/scope.ts'
import type { CrawlSettings } from '../../config/index.ts'
import { syntheticCallerSource, ttsCallerSource } from '../engine/caller-sources.ts'
import type { SingleTurnExecution, SingleTurnSettings } from '../engine/execution.ts'
import type { ObservedConversation } from '../engine/observed.ts'
import type { PhaseModule } from '../engine/phase-module.ts'
import { singleTurnDriver } from '../single-turn/driver.ts'
import { singleTurnGrader } from '../single-turn/grader.ts'
import { asCrawl, crawlDescription, speechCacheDirectory } from './description.ts'

/** The label cassette speech is keyed by (see SpeechSynthesizerOptions.keyEndpoint). */
const CASSETTE_SPEECH_KEY = 'live-evals-cassette'

/**
 * Replay never calls the speech endpoint: the request is answered, as the API answers an unknown resource, with a
 * 404 whose message says what is missing (no retry, no network).
 */
function speechNotRecorded(directory: string): typeof fetch {
  return async () =>
    new Response(
      JSON.stringify({
        error: {
          message: `replay has no recorded caller speech for this request in ${directory}; record the cassettes again (LIVE_EVALS_RECORD=1)`,
          type: 'invalid_request_error',
        },
      }),
      { status: 404, headers: { 'content-type': 'application/json' } },
    )
}

/**
 * The caller speech of a recording is part of its cassettes: the speech is synthesised in the Vitest fixture,
 * before the scenario's cassette scope opens, so it is kept in `<cassettes>/speech/`. Recording always
 * synthesises anew (the folder holds what this recording streamed, never an older cache's audio); replay reads
 * only from there.
 */
function cassetteSpeechSynthesizer(settings: CrawlSettings): SpeechSynthesizer | null {
  const replay = settings.replay.enabled
  if (!replay && !settings.execution.record) return null
  const cacheDir = join(settings.execution.cassettes_dir ?? 'cassettes', 'speech')
  const apiKey = settings.credentials.openai_api_key
  if (!replay && apiKey === null) {
    throw new Error('OPENAI_API_KEY is required to record; or replay with LIVE_EVALS_MODE=replay')
  }
  return new SpeechSynthesizer({
    client: replay
      ? new OpenAI({ apiKey: apiKey ?? 'replay', maxRetries: 0, fetch: speechNotRecorded(cacheDir) })
      : new OpenAI({ apiKey: apiKey ?? '', fetch: cassetteFetch }),
    cacheDir,
    refresh: !replay,
    keyEndpoint: CASSETTE_SPEECH_KEY,
  })
}

/**
 * Live runs speak the request with OpenAI text-to-speech behind the cache (bypassed for entries older than this
 * run when `audio.refresh_audio` is set).
 */
function speechSynthesizer(settings: CrawlSettings): SpeechSynthesizer {
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
