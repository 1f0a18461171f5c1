// What planning needs of CRAWL (see PhaseDescription): its results configuration and test timeout. The phase
// itself (index.ts) adds the synthesizer, the driver and the grader.
import { resolve } from 'node:path'
import type { CrawlSettings, PhaseSettings } from '../../config/index.ts'
import { projectRelativePath } from '../../reporting/project-path.ts'
import type { SingleTurnExecution } from '../engine/execution.ts'
import type { PhaseDescription } from '../engine/phase-module.ts'
import { singleTurnConfiguration } from '../single-turn/configuration.ts'
import { singleTurnTestTimeoutMs } from '../single-turn/timeouts.ts'

export function asCrawl(settings: PhaseSettings): CrawlSettings {
  if (settings.phase !== 'crawl') throw new Error(`expected CRAWL settings, got ${settings.phase}`)
  return settings
}

/** Where CRAWL caches synthesized caller speech when `audio.cache_dir` is not set. */
export function speechCacheDirectory(settings: CrawlSettings): string {
  return settings.audio.cache_dir ?? resolve(process.cwd(), '.audio_cache', 'crawl')
}

export const crawlDescription: PhaseDescription<SingleTurnExecution> = {
  phase: 'crawl',
  interaction: 'single_turn',
  configuration(settings, architecture, projectRoot = process.cwd()) {
    const crawl = asCrawl(settings)
    return singleTurnConfiguration(crawl, architecture, 'synthetic', {
      tts_model: crawl.models.tts_model,
      audio_cache_dir: projectRelativePath(projectRoot, speechCacheDirectory(crawl)),
      refresh_audio: crawl.audio.refresh_audio,
    })
  },
  testTimeoutMs: (settings) => singleTurnTestTimeoutMs(asCrawl(settings)),
}
