// A re-run that cannot even be set up is that re-run's infrastructure error, naming what failed: the explain goes
// on with the others (they have no verdict to count, and the arm says so).
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { crawlPhase } from '../phases/crawl/index.ts'
import { NO_INTERVENTIONS } from '../phases/run/interventions/index.ts'
import { bundledCrawlScenario, offlineCrawlSettings } from '../phases/single-turn/test-support.ts'
import { scratchFolder } from './explain.test-helpers.ts'
import { rerun } from './rerun.ts'
import type { FailedScenario, SourceRun } from './source-run.ts'

let folder = ''
beforeAll(async () => {
  folder = await scratchFolder()
})
afterAll(async () => {
  if (folder !== '') await rm(folder, { recursive: true, force: true })
})

test('a re-run whose folder cannot be made is an infrastructure error naming why', async () => {
  // A file where the explain folder should be: no re-run folder can be made below it.
  const blocked = join(folder, 'blocked')
  await writeFile(blocked, '')
  const scenario = await bundledCrawlScenario('crawl_001_booking_complete_request')
  const result = await rerun(
    {
      run: { architecture: 'responses', module: 'crawl' } as SourceRun,
      phase: crawlPhase,
      settings: await offlineCrawlSettings(),
      offlineServer: null,
      assistant: null,
      schedule: NO_INTERVENTIONS,
      directory: blocked,
    },
    {
      failed: { scenarioId: scenario.id, scenario } as unknown as FailedScenario,
      faults: null,
      plan: null,
      trial: 2,
      draws: { caller_offset_ms: 40, preset_seed: null, fault_seed: null },
    },
  )
  expect(result).toMatchObject({
    trial: 2,
    status: 'infrastructure_error',
    details: null,
    error: { stage: 'input_setup' },
  })
  expect(result.error?.message).toMatch(/^explain could not set up this re-run: .*blocked/)
})
