// The server side of bench/fault-matrix.ts, in its own process so that its RSS and descriptors are the servers'
// alone: the offline GPT-Live server (any token accepted) and the reference client-delegation service, with the
// limits given as JSON in argv[2] ({ offline: {...}, service: {...} }). It answers each IPC message
// { probe: true } with its memory (RSS after a gc when run with --expose-gc, and the kernel's peak RSS), the
// descriptors in use and both servers' counters. Exits when its parent disconnects.
import { readdirSync, readFileSync } from 'node:fs'
import {
  offlineRestaurantApplication,
  startClientAssistantService,
} from '../src/assistants/client/service/index.ts'
import { startOfflineLiveServer } from '../src/testing/live-server/index.ts'

export const BENCH_TOKEN = 'fault-matrix-bench-token-0123456789abcdef'

const limits = JSON.parse(process.argv[2] ?? '{}') as { offline?: object; service?: object }
const offline = await startOfflineLiveServer({ acceptAnyToken: true, limits: limits.offline ?? {} })
const service = await startClientAssistantService({
  token: BENCH_TOKEN,
  env: {},
  application: offlineRestaurantApplication,
  limits: limits.service ?? {},
})

/** Peak RSS of this process so far (the kernel's high-water mark: no sample can miss it). */
function peakRssBytes(): number {
  const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
  return Number(line?.[1] ?? 0) * 1024
}

const gc = (globalThis as { gc?: () => void }).gc
process.on('message', () => {
  gc?.()
  if (!process.connected) return
  // With a callback a send to a parent that has just gone fails quietly instead of throwing EPIPE.
  process.send?.(
    {
      rssBytes: process.memoryUsage().rss,
      descriptors: readdirSync('/proc/self/fd').length,
      offline: offline.stats(),
      service: { active: service.activeConnections, ...service.pendingConnections() },
      peakRssBytes: peakRssBytes(),
    },
    undefined,
    undefined,
    () => {},
  )
})
process.on('disconnect', () => {
  void Promise.all([offline.close(), service.close()]).then(() => process.exit(0))
})
process.send?.({
  offlineURL: offline.url,
  offlinePort: Number(new URL(offline.url).port),
  servicePort: service.port,
  healthURL: service.healthURL,
  serviceURL: service.url,
})
