// What the Vitest layer needs to know about each phase's runs: the interaction it reports, the `configuration`
// block of its results.json (reference §4.1), and how long one scenario test may take.
import { resolve } from 'node:path'
import type { CrawlSettings, Phase, SettingsFor } from '../config/index.ts'
import type { AssistantArchitecture } from './settings.ts'

export interface PhaseRunDescription {
  interaction: 'single_turn' | 'multi_turn'
  configuration(settings: SettingsFor<Phase>, architecture: AssistantArchitecture): Record<string, unknown>
  testTimeoutMs(settings: SettingsFor<Phase>): number
}

/** Time a scenario test gets besides the response timeout: synthesis, connecting, streaming the request, closing. */
const SINGLE_TURN_ALLOWANCE_MS = 60_000

/** Where CRAWL caches synthesized caller speech when `audio.cache_dir` is not set. */
export function speechCacheDirectory(settings: CrawlSettings): string {
  return settings.audio.cache_dir ?? resolve(process.cwd(), '.audio_cache', 'crawl')
}

function asCrawl(settings: SettingsFor<Phase>): CrawlSettings {
  if (settings.phase !== 'crawl') throw new Error(`expected CRAWL settings, got ${settings.phase}`)
  return settings
}

/** The CRAWL configuration keys of reference §4.1, for one architecture. */
export function crawlRunConfiguration(
  settings: CrawlSettings,
  architecture: AssistantArchitecture,
): Record<string, unknown> {
  const endpoint = settings.assistant.endpoint.trim()
  return {
    audio_source: 'synthetic',
    model: settings.models.live_model,
    backend_model: settings.models.backend_model,
    assistant_mode: architecture,
    assistant_endpoint: architecture === 'client' && endpoint !== '' ? endpoint : null,
    voice: settings.models.live_voice,
    tts_model: settings.models.tts_model,
    audio_cache_dir: speechCacheDirectory(settings),
    refresh_audio: settings.audio.refresh_audio,
    concurrency: settings.execution.concurrency,
    sample_rate_hz: settings.audio.sample_rate_hz,
    chunk_ms: settings.audio.chunk_ms,
    real_time: settings.execution.mode === 'live' || settings.audio.real_time,
  }
}

const DESCRIPTIONS: Partial<Record<Phase, PhaseRunDescription>> = {
  crawl: {
    interaction: 'single_turn',
    configuration: (settings, architecture) => crawlRunConfiguration(asCrawl(settings), architecture),
    testTimeoutMs: (settings) =>
      asCrawl(settings).execution.response_timeout_seconds * 1000 + SINGLE_TURN_ALLOWANCE_MS,
  },
}

export function phaseRunDescription(phase: Phase): PhaseRunDescription {
  const description = DESCRIPTIONS[phase]
  if (description === undefined) throw new Error(`live-evals has no Vitest suite for the ${phase} phase yet`)
  return description
}
