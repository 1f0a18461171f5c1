// Where the scavenger's work comes from, for the real-time benches: the allocation sites of the objects that
// outlived a young-generation collection. A scavenge pause grows with what it must copy (the objects still alive),
// not with what was allocated, and that pause is what makes a real-time frame late. V8's sampling heap profiler,
// told to forget what a minor collection freed, keeps exactly those objects (the `includeObjectsCollectedBy…`
// options of the DevTools protocol's HeapProfiler.startSampling; Node's types do not list them yet).
import { Session } from 'node:inspector/promises'
import { type Diagnostic, nameOf } from './cpu-profile.ts'

interface SampledNode {
  callFrame: { functionName: string; url: string; lineNumber: number }
  selfSize: number
  children: SampledNode[]
}

const OWN_CODE = /\/(src|bench)\//

/** Sampled surviving bytes by allocating function, and by the innermost frame of our own code above it. */
function tally(head: SampledNode): {
  total: number
  allocating: Map<string, number>
  ours: Map<string, number>
} {
  const allocating = new Map<string, number>()
  const ours = new Map<string, number>()
  let total = 0
  const visit = (node: SampledNode, ownFrame: string) => {
    const name = nameOf(node)
    const own = OWN_CODE.test(node.callFrame.url) ? name : ownFrame
    if (node.selfSize > 0) {
      total += node.selfSize
      allocating.set(name, (allocating.get(name) ?? 0) + node.selfSize)
      ours.set(own, (ours.get(own) ?? 0) + node.selfSize)
    }
    for (const child of node.children) visit(child, own)
  }
  visit(head, '(no frame of ours)')
  return { total, allocating, ours }
}

function shares(bytes: Map<string, number>, total: number, top: number): string[] {
  return [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, size]) => `    ${((100 * size) / total).toFixed(1).padStart(5)}%  ${name}`)
}

/** Samples (one per `intervalBytes` allocated, on average) the objects that survive a scavenge until stop(). */
export async function gcSurvivors(
  options: { top?: number; intervalBytes?: number } = {},
): Promise<Diagnostic> {
  const session = new Session()
  session.connect()
  const start = {
    samplingInterval: options.intervalBytes ?? 2048,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  }
  await session.post('HeapProfiler.startSampling', start)
  const startedAt = performance.now()
  return {
    async stop() {
      const { profile } = await session.post('HeapProfiler.getSamplingProfile')
      await session.post('HeapProfiler.stopSampling')
      session.disconnect()
      const seconds = (performance.now() - startedAt) / 1000
      const { total, allocating, ours } = tally(profile.head as SampledNode)
      const top = options.top ?? 15
      return [
        `  objects that outlived a scavenge: about ${(total / 1e6 / seconds).toFixed(2)} MB/s sampled over ` +
          `${seconds.toFixed(0)} s (what the scavenges copy and promote)`,
        '  by the function that allocated them:',
        ...shares(allocating, total, top),
        '  by the innermost frame of our own code (src/, bench/) above the allocation:',
        ...shares(ours, total, top),
      ]
    },
  }
}
