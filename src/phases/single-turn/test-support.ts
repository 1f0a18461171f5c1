// Test helpers for single-turn executions against the real offline GPT-Live server: CRAWL settings from a
// temporary TOML, a reserved run directory and an environment per architecture.

import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Architecture } from '../../assistants/frontend/index.ts'
import { type CrawlSettings, loadPhaseConfig } from '../../config/index.ts'
import { loadDataset, type Scenario } from '../../scenarios/index.ts'
import type { OfflineLiveServer } from '../../testing/live-server/index.ts'
import type { SingleTurnEnv } from './types.ts'

export const BUNDLED_CRAWL_DATASET = join(import.meta.dirname, '../../../scenarios/crawl/restaurant.json')

export async function offlineCrawlSettings(
  overrides: { timeoutSeconds?: number } = {},
): Promise<CrawlSettings> {
  const folder = await mkdtemp(join(tmpdir(), 'live-evals-crawl-'))
  const toml = join(folder, 'config.toml')
  await writeFile(
    toml,
    [
      '[dataset]',
      `path = ${JSON.stringify(BUNDLED_CRAWL_DATASET)}`,
      '[execution]',
      'mode = "offline"',
      `response_timeout_seconds = ${overrides.timeoutSeconds ?? 30}`,
      '[audio]',
      'real_time = false',
      '',
    ].join('\n'),
  )
  return loadPhaseConfig('crawl', toml, { env: {} })
}

export async function bundledCrawlScenario(id: string): Promise<Scenario> {
  const dataset = await loadDataset(BUNDLED_CRAWL_DATASET)
  const scenario = dataset.scenarios.find((candidate) => candidate.id === id)
  if (scenario === undefined) throw new Error(`bundled CRAWL dataset has no scenario ${id}`)
  return scenario as Scenario
}

export async function freshRunDirectory(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'live-evals-run-'))
}

export function offlineEnv(
  settings: CrawlSettings,
  server: OfflineLiveServer,
  runDirectory: string,
  architecture: Architecture,
  extra: Partial<SingleTurnEnv> = {},
): SingleTurnEnv {
  return {
    phase: 'crawl',
    settings,
    runDirectory,
    offlineServer: server,
    speech: null,
    architecture,
    ...extra,
  }
}
