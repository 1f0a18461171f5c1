// Backend consumption of an offline CRAWL row in both architectures: the offline backends report usage (the test
// servers' estimate) the way a model backend does, so the row's consumption.backend is filled in either one.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import {
  bundledCrawlScenario,
  executeScenario,
  freshRunDirectory,
  offlineCrawlSettings,
  offlineEnv,
} from './test-support.ts'

let server: OfflineLiveServer
const folders: string[] = []
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

describe.each(['responses', 'client'] as const)('offline CRAWL backend consumption (%s)', (architecture) => {
  it('a delegated booking reports the backend tokens it used', async () => {
    const runDirectory = await freshRunDirectory()
    folders.push(runDirectory)
    const scenario = await bundledCrawlScenario('crawl_001_booking_complete_request')
    const execution = await executeScenario(
      scenario,
      offlineEnv(await offlineCrawlSettings(), server, runDirectory, architecture),
    )
    expect(execution.row.status).toBe('passed')
    const { backend } = execution.row.metrics.consumption
    expect(backend.total_tokens).toBeGreaterThan(0)
    expect(backend.input?.total_tokens).toBeGreaterThan(0)
    expect(backend.output?.total_tokens).toBeGreaterThan(0)
    expect(backend.total_tokens).toBe(
      (backend.input?.total_tokens ?? 0) + (backend.output?.total_tokens ?? 0),
    )
  }, 60_000)
})
