// Offline RUN speed: every bundled RUN conversation, both architectures, played through the scripted caller and
// the offline GPT-Live server on the virtual clock (rehearsals included: the driver rehearses the plan to time
// each caller line, then plays the whole call once more to observe it). Prints simulated conversation seconds
// per wall second (target at least 50x) and per CPU second (the machine may be shared: CPU time barely moves
// with load), with the load, and how each call ended (speed only: the grading of these conversations is in
// src/grading/run and src/phases/run/row.ts).
// Run: npx node bench/run-offline.ts [--before <dir>]   (--before: see bench/before-after.ts)
import { availableParallelism, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { beforeRoot, benchImport, compareBeforeAfter, printFigures } from './before-after.ts'

const before = beforeRoot()
if (before !== null) await compareBeforeAfter(import.meta.filename, before, 2)
else await measure()

async function measure(): Promise<void> {
  const { playBundled } = await benchImport<typeof import('../src/phases/run/conversation.test-helpers.ts')>(
    'src/phases/run/conversation.test-helpers.ts',
  )
  const { loadDataset } =
    await benchImport<typeof import('../src/scenarios/load.ts')>('src/scenarios/load.ts')
  const { startOfflineLiveServer } = await benchImport<typeof import('../src/testing/live-server/index.ts')>(
    'src/testing/live-server/index.ts',
  )
  type Scenario = import('../src/scenarios/scenario.ts').Scenario

  const dataset = await loadDataset(new URL('../scenarios/run/restaurant.json', import.meta.url).pathname)
  const scenarios = dataset.scenarios.filter(
    (scenario) => scenario.interaction === 'multi_turn',
  ) as Scenario[]
  const server = await startOfflineLiveServer()
  const loadBefore = loadavg()
  const cpuBefore = process.cpuUsage()
  let simulatedMs = 0
  let wallMs = 0
  const endings: Record<string, number> = {}
  for (const architecture of ['responses', 'client'] as const) {
    for (const scenario of scenarios) {
      const started = performance.now()
      const conversation = await playBundled(server, scenario, architecture)
      const took = performance.now() - started
      simulatedMs += conversation.call.endedAtMs
      wallMs += took
      endings[conversation.termination_reason] = (endings[conversation.termination_reason] ?? 0) + 1
      console.log(
        `${architecture.padEnd(9)} ${scenario.id.padEnd(44)} ${conversation.termination_reason.padEnd(18)} ` +
          `simulated ${(conversation.call.endedAtMs / 1000).toFixed(1).padStart(5)} s  wall ${took.toFixed(0).padStart(5)} ms  ` +
          `x${(conversation.call.endedAtMs / took).toFixed(1)}`,
      )
    }
  }
  const cpu = process.cpuUsage(cpuBefore)
  const cpuMs = (cpu.user + cpu.system) / 1000
  await server.close()
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ')
  console.log(`\nconversations: ${scenarios.length * 2}  endings: ${JSON.stringify(endings)}`)
  console.log(
    `simulated conversation: ${(simulatedMs / 1000).toFixed(1)} s; wall: ${(wallMs / 1000).toFixed(2)} s; CPU: ${(cpuMs / 1000).toFixed(2)} s`,
  )
  console.log(
    `speed-up: ${(simulatedMs / wallMs).toFixed(1)}x wall (target >= 50x), ${(simulatedMs / cpuMs).toFixed(1)}x CPU; ` +
      `CPU per simulated second: ${(cpuMs / (simulatedMs / 1000)).toFixed(1)} ms`,
  )
  console.log(
    `load average before: ${load(loadBefore)}; after: ${load(loadavg())}; cores: ${availableParallelism()}`,
  )
  printFigures({
    'simulated s per wall s (x)': simulatedMs / wallMs,
    'simulated s per CPU s (x)': simulatedMs / cpuMs,
    'CPU per simulated second (ms)': cpuMs / (simulatedMs / 1000),
    'simulated conversation (s)': simulatedMs / 1000,
  })
}
