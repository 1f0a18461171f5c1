// The offline GPT-Live server in its own process, so the benchmark's client process measures only its own
// pacing and CPU. Prints one JSON line {"baseURL": …} when listening; on a stdin line "cpu" prints
// {"cpuMs": …} (its user+system CPU so far); exits when stdin closes.
import { createInterface } from 'node:readline'
import { startOfflineLiveServer } from '../../src/testing/live-server/index.ts'

const server = await startOfflineLiveServer({ acceptAnyToken: true })
process.stdout.write(`${JSON.stringify({ baseURL: server.baseURL })}\n`)

const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  if (line.trim() === 'cpu') {
    const usage = process.cpuUsage()
    process.stdout.write(`${JSON.stringify({ cpuMs: (usage.user + usage.system) / 1000 })}\n`)
  }
})
lines.on('close', () => {
  void server.close().then(() => process.exit(0))
})
