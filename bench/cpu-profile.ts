// CPU profile and garbage-collection diagnostics for the benches (run-realtime, crawl-offline, ...):
// - cpuProfile: the V8 CPU profile of the measured stretch (written to a folder for DevTools), summarized as the
//   functions with the most self time and, optionally, those inside the event loop's long tasks (the busy
//   stretches real-time frames wait behind).
// - gcTrace: every garbage collection while it ran, from perf_hooks, by kind.
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

/** A profile node's function as the diagnostics print it: name, the file's last two path parts, line. */
export const nameOf = (node: Pick<ProfileNode, 'callFrame'>) =>
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

export interface CpuProfileOptions {
  /** The profile file's name prefix. */
  name: string
  /** Also list self time inside busy stretches of at least this many ms (real-time benches); null: not. */
  longTaskMs: number | null
  /** How many functions each list shows. */
  top?: number
}

export async function cpuProfile(directory: string, options: CpuProfileOptions): Promise<Diagnostic> {
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
      const file = join(directory, `${options.name}-${process.pid}.cpuprofile`)
      await writeFile(file, JSON.stringify(profile))
      const top = options.top ?? 15
      const all = profile.samples.map((id, index): [number, number] => [
        id,
        profile.timeDeltas[index + 1] ?? 0,
      ])
      const lines = [
        `  CPU profile: ${file}`,
        '  self time, all samples (idle included):',
        ...topSelf(profile, all, top),
      ]
      if (options.longTaskMs === null) return lines
      const long = longTaskSamples(profile, options.longTaskMs)
      return [
        ...lines,
        `  self time inside the ${long.tasks} long tasks (>= ${options.longTaskMs} ms without an idle sample):`,
        ...topSelf(profile, long.samples, top),
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
