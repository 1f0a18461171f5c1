// Offline CRAWL throughput: every bundled CRAWL scenario, both architectures, on the virtual clock against the
// offline GPT-Live server. Prints wall time against the caller-side audio processed (speed-up factor; target
// >= 20x) and the per-scenario harness overhead. The machine may be shared, so it also prints the load
// average and the process CPU time (harness and in-process offline server together): CPU time per second
// of audio barely moves with load, wall time does.
// Run: npx node bench/crawl-offline.ts [--before <dir>] [--cpu-prof]   (--before: see bench/before-after.ts;
// --cpu-prof: the V8 profile of the scenario loop, written to the temp folder, and its top self-time entries,
// for each tree in a before/after run)
import { rm } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { beforeRoot, benchArguments, benchImport, compareBeforeAfter, printFigures } from './before-after.ts'
import { cpuProfile } from './cpu-profile.ts'

const before = beforeRoot()
if (before !== null) await compareBeforeAfter(import.meta.filename, before, 3)
else await measure()

async function measure(): Promise<void> {
  const { durationMs } = await benchImport<typeof import('../src/audio/pcm.ts')>('src/audio/pcm.ts')
  const { readMonoWavFile } = await benchImport<typeof import('../src/audio/wav.ts')>('src/audio/wav.ts')
  const { BUNDLED_CRAWL_DATASET, executeScenario, freshRunDirectory, offlineCrawlSettings, offlineEnv } =
    await benchImport<typeof import('../src/phases/single-turn/test-support.ts')>(
      'src/phases/single-turn/test-support.ts',
    )
  const { loadDataset, selectScenarios } =
    await benchImport<typeof import('../src/scenarios/index.ts')>('src/scenarios/index.ts')
  const { startOfflineLiveServer } = await benchImport<typeof import('../src/testing/live-server/index.ts')>(
    'src/testing/live-server/index.ts',
  )
  type Scenario = import('../src/scenarios/index.ts').Scenario

  const settings = await offlineCrawlSettings()
  const dataset = await loadDataset(BUNDLED_CRAWL_DATASET)
  const scenarios = selectScenarios(dataset.scenarios as Scenario[], 'crawl')
  const server = await startOfflineLiveServer()
  const runDirectory = await freshRunDirectory()

  const profile = benchArguments().includes('--cpu-prof')
    ? await cpuProfile(path.join(tmpdir(), 'live-evals-bench'), {
        name: 'crawl-offline',
        longTaskMs: null,
        top: 30,
      })
    : null
  const loadBefore = loadavg()
  const cpuBefore = process.cpuUsage()
  let totalWallMs = 0
  let totalAudioMs = 0
  const statuses: Record<string, number> = {}
  for (const architecture of ['responses', 'client'] as const) {
    for (const scenario of scenarios) {
      const env = offlineEnv(settings, server, `${runDirectory}`, architecture)
      const started = performance.now()
      const execution = await executeScenario({ ...scenario, id: `${scenario.id}.${architecture}` }, env)
      const wallMs = performance.now() - started
      // The session audio processed = the caller track streamed to the server (request plus listening silence).
      const input = execution.artifacts.input_audio
      // Without its recording the audio processed is unknown; counting it as 0 would skew the speed-up.
      if (input === null) {
        throw new Error(
          `${scenario.id} (${architecture}) wrote no input.wav: ${JSON.stringify(execution.failure)}`,
        )
      }
      const audioMs = durationMs((await readMonoWavFile(input)).samples.length)
      totalWallMs += wallMs
      totalAudioMs += audioMs
      statuses[execution.row.status] = (statuses[execution.row.status] ?? 0) + 1
      console.log(
        `${architecture.padEnd(9)} ${scenario.id.padEnd(42)} ${execution.row.status.padEnd(20)} ` +
          `audio ${(audioMs / 1000).toFixed(1).padStart(5)} s  wall ${wallMs.toFixed(0).padStart(5)} ms  ` +
          `x${(audioMs / wallMs).toFixed(1)}`,
      )
    }
  }
  const cpu = process.cpuUsage(cpuBefore)
  const cpuMs = (cpu.user + cpu.system) / 1000
  const loadAfter = loadavg()
  if (profile !== null) for (const line of await profile.stop()) console.log(line)
  await server.close()
  // Each run writes about 86 MB of artifacts; a before/after run makes several of them.
  await rm(runDirectory, { recursive: true, force: true })
  const count = scenarios.length * 2
  console.log(`\nscenario executions: ${count}  statuses: ${JSON.stringify(statuses)}`)
  console.log(
    `caller audio processed: ${(totalAudioMs / 1000).toFixed(1)} s; wall time: ${(totalWallMs / 1000).toFixed(2)} s`,
  )
  console.log(`speed-up factor: ${(totalAudioMs / totalWallMs).toFixed(1)}x (target >= 20x)`)
  console.log(`mean harness time per scenario: ${(totalWallMs / count).toFixed(0)} ms`)
  console.log(
    `CPU time (harness + offline server): ${(cpuMs / 1000).toFixed(2)} s; audio per CPU second: ` +
      `${(totalAudioMs / cpuMs).toFixed(1)}x; CPU per scenario: ${(cpuMs / count).toFixed(0)} ms ` +
      `(user ${(cpu.user / 1000 / count).toFixed(1)} ms, system ${(cpu.system / 1000 / count).toFixed(1)} ms)`,
  )
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ')
  console.log(
    `load average (1/5/15 min) before: ${load(loadBefore)}; after: ${load(loadAfter)}; ` +
      `cores: ${availableParallelism()}`,
  )
  printFigures({
    'CPU per scenario (ms)': cpuMs / count,
    'user CPU per scenario (ms)': cpu.user / 1000 / count,
    'system CPU per scenario (ms)': cpu.system / 1000 / count,
    'audio per CPU second (x)': totalAudioMs / cpuMs,
    'wall per scenario (ms)': totalWallMs / count,
    'speed-up, audio per wall second (x)': totalAudioMs / totalWallMs,
    'caller audio processed (s)': totalAudioMs / 1000,
  })
}
