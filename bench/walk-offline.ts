// Offline WALK throughput: every bundled WALK recording (clean and under each preset), both architectures, on
// the virtual clock against the offline GPT-Live server, the way `npx vitest run specs/walk` runs them. Prints
// the wall time against two audio totals: the recordings themselves (what WALK is about) and the whole caller
// track streamed (lead-in, recording, then the silence while the assistant answers), both as speed-up factors,
// per preset and overall. The machine may be shared, so it also prints the load average and the process CPU
// time (harness and in-process offline server together). Run: npx node bench/walk-offline.ts
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { durationMs } from '../src/audio/pcm.ts'
import { readMonoWavFile } from '../src/audio/wav.ts'
import { runScenario } from '../src/phases/engine/run-scenario.ts'
import { walkPhase } from '../src/phases/walk/index.ts'
import {
  BUNDLED_WALK_DATASET,
  offlineWalkEnv,
  offlineWalkSettings,
} from '../src/phases/walk/walk.test-helpers.ts'
import { assistantVisibleInput, loadDataset, type Scenario, selectScenarios } from '../src/scenarios/index.ts'
import { startOfflineLiveServer } from '../src/testing/live-server/index.ts'

const settings = await offlineWalkSettings()
const dataset = await loadDataset(BUNDLED_WALK_DATASET)
const scenarios = selectScenarios(dataset.scenarios, 'walk')
const server = await startOfflineLiveServer()

type Totals = { wallMs: number; recordingMs: number; streamedMs: number; count: number }
const empty = (): Totals => ({ wallMs: 0, recordingMs: 0, streamedMs: 0, count: 0 })
const overall = empty()
const byCondition = new Map<string, Totals>()
const statuses: Record<string, number> = {}
const loadBefore = loadavg()
const cpuBefore = process.cpuUsage()
for (const architecture of ['responses', 'client'] as const) {
  const env = await offlineWalkEnv(settings, server, architecture)
  for (const scenario of scenarios) {
    const recording = scenario.input.recordings[0]
    if (recording === undefined) throw new Error(`${scenario.id} has no recording`)
    const recordingMs = (await readMonoWavFile(recording.resolvedPath)).durationMs
    const started = performance.now()
    const execution = await runScenario(walkPhase, scenario as Scenario, env, {
      application: env.architecture.createApplication(assistantVisibleInput(scenario as Scenario)),
    })
    const wallMs = performance.now() - started
    const input = execution.row.artifacts.input_audio
    // Without its input.wav the audio streamed is unknown; counting it as 0 would skew the speed-up.
    if (input === null)
      throw new Error(
        `${scenario.id} (${architecture}) wrote no input.wav: ${JSON.stringify(execution.failure)}`,
      )
    const streamedMs = durationMs((await readMonoWavFile(join(env.runDirectory, input))).samples.length)
    statuses[execution.row.status] = (statuses[execution.row.status] ?? 0) + 1
    for (const totals of [overall, byCondition.get(recording.condition) ?? empty()]) {
      totals.wallMs += wallMs
      totals.recordingMs += recordingMs
      totals.streamedMs += streamedMs
      totals.count += 1
      if (totals !== overall) byCondition.set(recording.condition, totals)
    }
  }
}
const cpu = process.cpuUsage(cpuBefore)
const cpuMs = (cpu.user + cpu.system) / 1000
const loadAfter = loadavg()
await server.close()

const factor = (audioMs: number, wallMs: number) => `${(audioMs / wallMs).toFixed(1)}x`
console.log('condition          runs  recordings  streamed  wall      recording/wall  streamed/wall')
for (const [condition, totals] of [...byCondition.entries(), ['all', overall] as const]) {
  console.log(
    `${condition.padEnd(18)} ${String(totals.count).padStart(4)}  ${(totals.recordingMs / 1000).toFixed(1).padStart(8)} s` +
      `  ${(totals.streamedMs / 1000).toFixed(1).padStart(6)} s  ${(totals.wallMs / 1000).toFixed(2).padStart(6)} s` +
      `  ${factor(totals.recordingMs, totals.wallMs).padStart(14)}  ${factor(totals.streamedMs, totals.wallMs).padStart(13)}`,
  )
}
console.log(`\nscenario executions: ${overall.count}  statuses: ${JSON.stringify(statuses)}`)
console.log(`mean harness time per scenario: ${(overall.wallMs / overall.count).toFixed(0)} ms`)
console.log(
  `CPU time (harness + offline server): ${(cpuMs / 1000).toFixed(2)} s; streamed audio per CPU second: ` +
    `${(overall.streamedMs / cpuMs).toFixed(1)}x`,
)
const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ')
console.log(
  `load average (1/5/15 min) before: ${load(loadBefore)}; after: ${load(loadAfter)}; cores: ${availableParallelism()}`,
)
