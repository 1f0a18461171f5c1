// Builders for tests of the judge in a live run: CRAWL settings in live mode whose GPT-Live endpoint is a loopback
// offline server, from a temporary TOML and an explicit environment (never the process's).
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CrawlSettings, loadPhaseConfig } from '../../config/index.ts'
import { BUNDLED_CRAWL_DATASET } from '../single-turn/test-support.ts'

export async function liveCrawlSettings(options: {
  apiKey: string
  liveBaseURL: string
  extraToml?: string[]
}): Promise<CrawlSettings> {
  const folder = await mkdtemp(join(tmpdir(), 'live-evals-judge-'))
  const toml = join(folder, 'config.toml')
  await writeFile(
    toml,
    [
      '[dataset]',
      `path = ${JSON.stringify(BUNDLED_CRAWL_DATASET)}`,
      '[execution]',
      'response_timeout_seconds = 20',
      ...(options.extraToml ?? []),
      '',
    ].join('\n'),
  )
  return loadPhaseConfig('crawl', toml, {
    env: {
      LIVE_EVALS_MODE: 'live',
      OPENAI_API_KEY: options.apiKey,
      OPENAI_LIVE_ENDPOINT: options.liveBaseURL,
      OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '1',
    },
  })
}
