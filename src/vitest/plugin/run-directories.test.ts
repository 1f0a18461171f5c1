import { mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { claimRunDirectory, releaseUnusedRunDirectories } from './run-directories.ts'
import { RunPlanProblem } from './run-plan-problem.ts'

const NOW = new Date(Date.UTC(2026, 7, 18))
const request = async (overrides: Partial<Parameters<typeof claimRunDirectory>[0]> = {}) => ({
  resultsDir: join(await mkdtemp(join(tmpdir(), 'live-evals-claim-')), 'results'),
  label: 'crawl_offline_responses',
  architecture: 'responses',
  runName: null,
  shard: null,
  now: NOW,
  ...overrides,
})

test('without a run name a run gets a new timestamped folder and writes results.json', async () => {
  const claimed = await claimRunDirectory(await request())
  expect(claimed).toMatchObject({
    name: 'crawl_offline_responses_20260818_000000_000Z',
    resultsFile: 'results.json',
    claim: null,
  })
})

test('a sharded run without a run name is refused before anything is created', async () => {
  const input = await request({ shard: { index: 1, count: 2 } })
  await expect(claimRunDirectory(input)).rejects.toThrow(RunPlanProblem)
  await expect(claimRunDirectory(input)).rejects.toThrow(/LIVE_EVALS_RUN_NAME/)
  await expect(readdir(input.resultsDir)).rejects.toThrow(/ENOENT/)
})

test('a named run owns <name>_<architecture>; the same name twice is refused', async () => {
  const input = await request({ runName: 'nightly' })
  const claimed = await claimRunDirectory(input)
  expect(claimed.directory).toBe(join(input.resultsDir, 'nightly_responses'))
  await expect(claimRunDirectory(input)).rejects.toThrow(/run "nightly" exists already/)
})

test('shards share the folder, each claims its own place once, and splits never mix', async () => {
  const first = await request({ runName: 'nightly', shard: { index: 1, count: 2 } })
  const one = await claimRunDirectory(first)
  const two = await claimRunDirectory({ ...first, shard: { index: 2, count: 2 } })
  expect(two.directory).toBe(one.directory)
  expect([one.resultsFile, two.resultsFile]).toEqual([
    'results.shard-1-of-2.json',
    'results.shard-2-of-2.json',
  ])
  await expect(claimRunDirectory(first)).rejects.toThrow(/shard 1\/2 of run "nightly" ran already/)
  await expect(claimRunDirectory({ ...first, shard: { index: 3, count: 3 } })).rejects.toThrow(
    /split into 2 shards/,
  )
})

test('release removes an unused shard claim and an empty folder, and keeps whatever was written', async () => {
  const input = await request({ runName: 'nightly', shard: { index: 1, count: 2 } })
  const used = await claimRunDirectory(input)
  const unused = await claimRunDirectory({ ...input, shard: { index: 2, count: 2 } })
  await writeFile(join(used.directory, used.resultsFile), '{}')
  expect(await releaseUnusedRunDirectories([used, unused])).toEqual([unused.claim])
  expect((await readdir(used.directory)).sort()).toEqual(['.shard-1-of-2', 'results.shard-1-of-2.json'])
  const alone = await claimRunDirectory(await request())
  expect(await releaseUnusedRunDirectories([alone])).toEqual([alone.directory])
  expect(await releaseUnusedRunDirectories([alone])).toEqual([])
})
