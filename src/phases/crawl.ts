// CRAWL specifics: which scenarios it runs (single_turn ones) and the `run.configuration` block of its
// results.json, with exactly the CRAWL keys of reference §4.1.

import type { CrawlSettings } from '../config/index.ts'
import { type Scenario, type SelectionOptions, selectScenarios } from '../scenarios/index.ts'

export function selectCrawlScenarios<T extends Scenario>(
  scenarios: readonly T[],
  options: SelectionOptions = {},
): T[] {
  return selectScenarios(scenarios, 'crawl', options)
}

/** `run.configuration` for CRAWL. `assistant_endpoint` is null unless the client architecture has one. */
export function crawlRunConfiguration(
  settings: CrawlSettings,
  architecture: 'responses' | 'client' = settings.assistant.mode,
): Record<string, unknown> {
  return {
    audio_source: 'synthetic',
    model: settings.models.live_model,
    backend_model: settings.models.backend_model,
    assistant_mode: architecture,
    assistant_endpoint:
      architecture === 'client' && settings.assistant.endpoint !== '' ? settings.assistant.endpoint : null,
    voice: settings.models.live_voice,
    tts_model: settings.models.tts_model,
    audio_cache_dir: settings.audio.cache_dir,
    // The settings have no refresh switch yet, so cached speech is always reused.
    refresh_audio: false,
    concurrency: settings.execution.concurrency,
    sample_rate_hz: settings.audio.sample_rate_hz,
    chunk_ms: settings.audio.chunk_ms,
    real_time: settings.audio.real_time,
  }
}
