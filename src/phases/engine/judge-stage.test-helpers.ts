// Builders for tests of the judge in a live run: CRAWL settings in live mode whose GPT-Live endpoint is a loopback
// offline server, from a temporary TOML and an explicit environment (never the process's).
import type { CrawlSettings } from '../../config/index.ts'
import { BUNDLED_CRAWL_DATASET, settingsFromToml } from '../single-turn/test-support.ts'

export function liveCrawlSettings(options: {
  apiKey: string
  liveBaseURL: string
  extraToml?: string[]
}): Promise<CrawlSettings> {
  return settingsFromToml(
    'crawl',
    [
      '[dataset]',
      `path = ${JSON.stringify(BUNDLED_CRAWL_DATASET)}`,
      '[execution]',
      'response_timeout_seconds = 20',
      ...(options.extraToml ?? []),
    ],
    {
      LIVE_EVALS_MODE: 'live',
      OPENAI_API_KEY: options.apiKey,
      OPENAI_LIVE_ENDPOINT: options.liveBaseURL,
      OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '1',
    },
  )
}
