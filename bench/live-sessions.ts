// Benchmark: N concurrent GPT-Live sessions, each streaming real-time-paced 20 ms frames to the offline server.
//
// Run (no npm needed; the repository's pinned Node 24 runs TypeScript directly):
//   node_modules/.bin/node bench/live-sessions.ts [--seconds 5] [--sizes 8,32,64] [--repeat 3] [--aligned]
// (or `npx node bench/live-sessions.ts`; the system Node 20 cannot run it).
//
// The offline server runs in a child process so this process measures only the client side: every session's
// send lateness (actual send time minus its absolute-deadline slot, pooled over all frames), pacing stalls,
// event-loop delay, and this process's CPU time per session while streaming. The server's CPU is shown apart.
// Figures are measured within one run; none of them is asserted anywhere. Each size runs `--repeat` times and
// gets a summary line (median and worst p99 over the repeats); the load average is printed before and after
// each size, so a figure taken while something else was loading the machine shows as such.
//
// Session phases: real sessions start whenever their tests do, so by default session i's 20 ms grid is offset
// by i·20/N ms (phases spread evenly). `--aligned` puts every session on the same grid instead: the worst case,
// where all N sends fall in the same millisecond.
import { availableParallelism, loadavg } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { type PacingReport, paceFrames } from '../src/audio/pacing.ts'
import { FRAME_MS, pcm16ToBytes, SAMPLE_RATE_HZ, SAMPLES_PER_FRAME } from '../src/audio/pcm.ts'
import { LiveSession } from '../src/live/index.ts'
import { percentile as nearestRank } from '../src/reporting/statistics.ts'
import { startServerChild } from './live/server-child.ts'
import { median } from './median.ts'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    sizes: { type: 'string', default: '8,32,64' },
    repeat: { type: 'string', default: '3' },
    aligned: { type: 'boolean', default: false },
  },
})
const seconds = Number(values.seconds)
const sizes = values.sizes.split(',').map(Number)
const repeat = Number(values.repeat)
if (
  !(seconds > 0) ||
  !Number.isInteger(repeat) ||
  repeat < 1 ||
  sizes.some((n) => !Number.isInteger(n) || n < 1)
) {
  throw new Error('usage: live-sessions.ts [--seconds S>0] [--sizes N,N,…] [--repeat R] (positive integers)')
}

/** 20 ms of a 220 Hz tone, PCM16 LE at 24 kHz: what is sent does not matter to the transport, its size does. */
function toneFrame(): Uint8Array {
  const samples = new Int16Array(SAMPLES_PER_FRAME)
  for (let i = 0; i < samples.length; i += 1)
    samples[i] = Math.round(3000 * Math.sin((2 * Math.PI * 220 * i) / SAMPLE_RATE_HZ))
  return pcm16ToBytes(samples)
}

/** Frames each session streams. */
const frameCount = Math.round((seconds * 1000) / FRAME_MS)

/**
 * Per-frame lateness. A re-anchored frame counts with its lateness against the schedule it missed (otherwise a
 * stall would look like a punctual frame and hide in the percentiles).
 */
function truthfulLateness(report: PacingReport): number[] {
  const missed = new Map(report.stalls.map((stall) => [stall.frameIndex, stall.lateMs]))
  return report.frames.map((frame) => missed.get(frame.index) ?? frame.lateMs)
}

/** Where session i's frame grid starts, relative to a common origin. */
const phaseOffsetMs = (i: number, n: number) => (values.aligned ? 0 : (i * FRAME_MS) / n)

/** The reports' nearest-rank percentile, NaN (printed as such) for no values. */
const percentile = (sorted: readonly number[], p: number) => nearestRank(sorted, p) ?? Number.NaN

const fmt = (value: number, digits = 2) => value.toFixed(digits).padStart(8)

/** A 1-minute load average at or above this share of the cores means the figures were taken under load. */
const BUSY_LOAD_PER_CORE = 0.75
const cores = availableParallelism()

/** The 1/5/15-minute load averages, with a warning when the machine was busy. */
function loadLine(when: string): string {
  const [one = 0, five = 0, fifteen = 0] = loadavg()
  const busy = one >= BUSY_LOAD_PER_CORE * cores ? `  <- BUSY (${cores} cores): figures taken under load` : ''
  return `      load average ${when}: ${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)}${busy}`
}

/** The same pacing with a consumer that does nothing: what timers alone give on this machine right now. */
async function timersOnly(sessionCount: number) {
  const frames = Array.from({ length: frameCount }, () => null)
  const origin = performance.now() + FRAME_MS
  const reports = await Promise.all(
    Array.from({ length: sessionCount }, (_, i) =>
      paceFrames(frames, () => true, { startAtMs: origin + phaseOffsetMs(i, sessionCount) }),
    ),
  )
  const lateness = reports.flatMap(truthfulLateness).sort((a, b) => a - b)
  return { p50: percentile(lateness, 50), p99: percentile(lateness, 99) }
}

async function runOnce(baseURL: string, sessionCount: number, serverCpuMs: () => Promise<number>) {
  const frame = toneFrame()
  const frames = Array.from({ length: frameCount }, () => frame)
  const sessions = Array.from(
    { length: sessionCount },
    (_, i) =>
      new LiveSession({ apiKey: `bench-${sessionCount}-${i}`, baseURL, allowInsecureLoopback: true }, {}),
  )
  await Promise.all(sessions.map((session) => session.start({ model: 'gpt-live-1' })))

  const loopDelay = monitorEventLoopDelay({ resolution: 1 })
  const serverBefore = await serverCpuMs()
  const cpuBefore = process.cpuUsage()
  loopDelay.enable()
  const origin = performance.now() + FRAME_MS
  const reports = await Promise.all(
    sessions.map((session, i) =>
      paceFrames(frames, (audio) => session.appendAudio(audio), {
        startAtMs: origin + phaseOffsetMs(i, sessionCount),
      }),
    ),
  )
  loopDelay.disable()
  const cpu = process.cpuUsage(cpuBefore)
  const serverCpu = (await serverCpuMs()) - serverBefore

  const outcomes = await Promise.all(sessions.map((session) => session.close()))
  const notClosed = outcomes.filter((outcome) => outcome.type !== 'closed')
  if (notClosed.length > 0) throw new Error(`bench: ${notClosed.length} sessions did not close normally`)
  const incomplete = reports.filter((report) => report.ended !== 'completed').length
  if (incomplete > 0) throw new Error(`bench: ${incomplete} sessions stopped streaming early`)

  const lateness = reports.flatMap(truthfulLateness).sort((a, b) => a - b)
  return {
    sessionCount,
    frames: lateness.length,
    p50: percentile(lateness, 50),
    p99: percentile(lateness, 99),
    max: lateness.at(-1) ?? Number.NaN,
    stalls: reports.reduce((sum, report) => sum + report.stalls.length, 0),
    loopDelayP99: loopDelay.percentile(99) / 1e6,
    cpuMsPerSession: (cpu.user + cpu.system) / 1000 / sessionCount,
    serverCpuMsPerSession: serverCpu / sessionCount,
  }
}

const server = await startServerChild()
try {
  const phases = values.aligned ? 'all on one 20 ms grid (worst case)' : 'phases spread over the 20 ms grid'
  console.log(`live-sessions: ${seconds} s of real-time-paced 20 ms frames per session, ${phases}`)
  console.log(
    '    N   frames  late p50  late p99  late max  stalls  loop p99  client CPU/session  (%audio)  server CPU/session',
  )
  for (const n of sizes) {
    console.log(loadLine('before'))
    const p50s: number[] = []
    const p99s: number[] = []
    for (let run = 1; run <= repeat; run += 1) {
      const row = await runOnce(server.baseURL, n, () => server.cpuMs())
      const baseline = await timersOnly(n)
      p50s.push(row.p50)
      p99s.push(row.p99)
      const cpuShare = (100 * row.cpuMsPerSession) / (seconds * 1000)
      console.log(
        `${String(n).padStart(5)} ${String(row.frames).padStart(8)}  ${fmt(row.p50)}  ${fmt(row.p99)}  ${fmt(row.max)}` +
          `  ${String(row.stalls).padStart(6)}  ${fmt(row.loopDelayP99)}  ${fmt(row.cpuMsPerSession, 1)} ms        ` +
          `${fmt(cpuShare)}%  ${fmt(row.serverCpuMsPerSession, 1)} ms   (run ${run}/${repeat})`,
      )
      console.log(
        `      timers only (no sockets, same N): late p50 ${fmt(baseline.p50)}  p99 ${fmt(baseline.p99)}`,
      )
    }
    console.log(
      `  N=${n} over ${repeat} run(s): late p50 median ${fmt(median(p50s))}  late p99 median ${fmt(median(p99s))}` +
        `  worst p99 ${fmt(Math.max(...p99s))}`,
    )
    console.log(loadLine('after '))
  }
  console.log('(lateness and loop delay in ms; CPU is user+system time while streaming)')
} finally {
  await server.stop()
}
