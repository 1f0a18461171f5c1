// Diagnostics for bench/run-realtime.ts: where this process's frames go late.
// - cpuProfile: the V8 CPU profile of the calls (written to the temp folder for DevTools), summarized as the functions with the most
//   self time overall and inside the event loop's long tasks (the busy stretches frames wait behind).
// - gcTrace: every garbage collection while the calls ran, from perf_hooks, by kind.
// - compare: the bench of another checkout and this one, alternately, in their own processes.
import { spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { join } from 'node:path'
import { constants, PerformanceObserver } from 'node:perf_hooks'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

export interface Diagnostic {
  stop(): Promise<string[]>
}

const nameOf = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber + 1}`

function topSelf(profile: Profile, samples: Iterable<[number, number]>, count: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<string, number>()
  let total = 0
  for (const [id, us] of samples) {
    const node = byId.get(id)
    if (node === undefined) continue
    self.set(nameOf(node), (self.get(nameOf(node)) ?? 0) + us)
    total += us
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([name, us]) =>
        `    ${((100 * us) / total).toFixed(1).padStart(5)}% ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`,
    )
}

/** Samples in busy stretches of at least `minMs` between idle samples. */
function longTaskSamples(profile: Profile, minMs: number): { samples: [number, number][]; tasks: number } {
  const idle = new Set(
    profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((n) => n.id),
  )
  const out: [number, number][] = []
  let run: [number, number][] = []
  let runUs = 0
  let tasks = 0
  const close = () => {
    if (runUs >= minMs * 1000) {
      out.push(...run)
      tasks += 1
    }
    run = []
    runUs = 0
  }
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index + 1] ?? 0
    if (idle.has(id)) close()
    else {
      run.push([id, us])
      runUs += us
    }
  })
  close()
  return { samples: out, tasks }
}

export async function cpuProfile(directory: string): Promise<Diagnostic> {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 500 })
  await session.post('Profiler.start')
  return {
    async stop() {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile }
      session.disconnect()
      await mkdir(directory, { recursive: true })
      const file = join(directory, `run-realtime-${process.pid}.cpuprofile`)
      await writeFile(file, JSON.stringify(profile))
      const all = profile.samples.map((id, index): [number, number] => [
        id,
        profile.timeDeltas[index + 1] ?? 0,
      ])
      const long = longTaskSamples(profile, 15)
      return [
        `  CPU profile: ${file}`,
        '  self time, all samples (idle included):',
        ...topSelf(profile, all, 15),
        `  self time inside the ${long.tasks} long tasks (>= 15 ms without an idle sample):`,
        ...topSelf(profile, long.samples, 15),
      ]
    },
  }
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor (scavenge)',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major (mark-compact)',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
}

export function gcTrace(): Diagnostic {
  const kinds = new Map<string, { count: number; totalMs: number; maxMs: number }>()
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as { detail?: { kind?: number } }).detail
      const kind = GC_KINDS[detail?.kind ?? -1] ?? `kind ${detail?.kind}`
      const seen = kinds.get(kind) ?? { count: 0, totalMs: 0, maxMs: 0 }
      seen.count += 1
      seen.totalMs += entry.duration
      seen.maxMs = Math.max(seen.maxMs, entry.duration)
      kinds.set(kind, seen)
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  return {
    async stop() {
      observer.disconnect()
      return [
        '  garbage collection while the calls ran:',
        ...[...kinds].map(
          ([kind, seen]) =>
            `    ${kind}: ${seen.count}, total ${seen.totalMs.toFixed(0)} ms, longest ${seen.maxMs.toFixed(1)} ms`,
        ),
      ]
    },
  }
}

/** The figures compared across checkouts, read from the lines both versions of the bench print. */
interface Figures {
  relayP50: number
  relayP99: number
  steadyP99: number
  timersP99: number
}

function figuresOf(output: string): Figures | null {
  const relay = /relay lateness over \d+ paired frames: p50 ([\d.]+) ms, p99 ([\d.]+) ms/.exec(output)
  const steady = /calls were under way \(.*?\): p50 (?:[\d.]+|NaN) ms, p99 ([\d.]+|NaN) ms/.exec(output)
  const timers = /timers only .*?late p50 [\d.]+ ms, p99 ([\d.]+) ms/.exec(output)
  if (relay === null || steady === null || timers === null) return null
  return {
    relayP50: Number(relay[1]),
    relayP99: Number(relay[2]),
    steadyP99: Number(steady[1]),
    timersP99: Number(timers[1]),
  }
}

function runBench(file: string, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { cwd, stdio: ['ignore', 'pipe', 'inherit'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      process.stdout.write(chunk)
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`bench: ${file} exited with ${code}`)),
    )
  })
}

/** Runs the previous checkout's bench and this one alternately, `rounds` times, and prints the figures. */
export async function compare(options: {
  before: string
  after: string
  args: readonly string[]
  rounds: number
}): Promise<void> {
  const rows: string[] = []
  for (let round = 1; round <= options.rounds; round++) {
    for (const [label, root] of [
      ['before', options.before],
      ['after', options.after],
    ] as const) {
      console.log(`\n== round ${round}, ${label} (${root})`)
      const output = await runBench(join(root, 'bench/run-realtime.ts'), options.args, root)
      const figures = figuresOf(output)
      rows.push(
        figures === null
          ? `  round ${round} ${label.padEnd(6)}: no figures (see its output above)`
          : `  round ${round} ${label.padEnd(6)}: relay p50 ${figures.relayP50.toFixed(2)} ms, p99 ${figures.relayP99.toFixed(2)} ms ` +
              `(all under way ${figures.steadyP99.toFixed(2)} ms); timers only p99 ${figures.timersP99.toFixed(2)} ms; ` +
              `relay p99 / timers p99 = ${(figures.relayP99 / figures.timersP99).toFixed(2)}×`,
      )
    }
  }
  console.log(`\nbefore (${options.before}) and after (${options.after}), ${options.args.join(' ')}:`)
  for (const row of rows) console.log(row)
}
