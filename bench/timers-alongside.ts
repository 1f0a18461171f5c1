// The timers-only baseline taken during the calls instead of before or after them: the same number of bare 20 ms
// schedules in a process of their own, started before the calls and stopped after them. It shares the machine's
// load with the calls (the client, the server process, the kernel's loopback traffic) but not the client's event
// loop, so the relay's lateness over it is what the harness's own work adds, apart from what the machine's load
// does to any timer. A reading before or after the calls misses that load, and on a shared machine it moved by
// up to 2x between the two windows of one run. Its own CPU is printed (at 32 schedules about 6 % of one core).
//
// bench/run-realtime.ts uses it; run alone (`node bench/timers-alongside.ts <schedules>`) it paces until its
// standard input closes, then writes each frame's slot (epoch milliseconds) and lateness as JSON lines.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { frameLateness, paceFrames } from '../src/audio/pacing.ts'
import { FRAME_MS } from '../src/audio/pcm.ts'
import { bareTimersClock } from './bare-timers.ts'

/** One frame of one schedule: its slot on the epoch clock (shared by processes) and how late it went out. */
export interface AlongsideFrame {
  slotEpochMs: number
  lateMs: number
}

export interface TimersAlongside {
  /** Stops the schedules; every frame they paced, and the process's own CPU (its cost to the calls). */
  stop(): Promise<{ frames: AlongsideFrame[]; cpuMs: number }>
}

/** Starts `count` bare schedules in a process of their own; resolves once they pace. */
export async function startTimersAlongside(count: number): Promise<TimersAlongside> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const frames: AlongsideFrame[] = []
  let cpuMs = Number.NaN
  const { promise: ready, resolve: started } = Promise.withResolvers<void>()
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'pacing') {
      started()
      return
    }
    if (line.startsWith('cpu ')) {
      cpuMs = Number(line.slice(4))
      return
    }
    const [slotEpochMs, lateMs] = JSON.parse(line) as [number, number]
    frames.push({ slotEpochMs, lateMs })
  })
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
  await Promise.race([
    ready,
    exited.then((code) => {
      throw new Error(`bench: the timers-alongside process exited (${code}) before pacing`)
    }),
  ])
  return {
    async stop() {
      child.stdin.end()
      const code = await exited
      if (code !== 0) throw new Error(`bench: the timers-alongside process exited with ${code}`)
      return { frames, cpuMs }
    },
  }
}

/** The child: `count` schedules spread over one frame, like the calls' starts, until stdin closes. */
async function paceAlone(count: number): Promise<void> {
  const stop = new AbortController()
  process.stdin.on('end', () => stop.abort()).resume()
  const endless = {
    *[Symbol.iterator]() {
      for (;;) yield null
    },
  }
  // Bare timers (the calls' process has the loop waker): this process adds only what bare timers cost the machine,
  // and reads what they give beside the calls. With a waker of its own it doubled its CPU and paced worse than the
  // calls did: every waker wakes on the same millisecond, on two cores.
  const clock = bareTimersClock()
  const origin = performance.now() + FRAME_MS
  process.stdout.write('pacing\n')
  const reports = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      paceFrames(endless, () => true, {
        clock,
        startAtMs: origin + (index * FRAME_MS) / count,
        signal: stop.signal,
      }),
    ),
  )
  const lines: string[] = []
  for (const report of reports) {
    // A stalled frame counts against the slot it missed (frameLateness), and is placed at that slot.
    const missed = new Map(report.stalls.map((stall) => [stall.frameIndex, stall.missedScheduleMs]))
    const lateness = frameLateness(report)
    for (const [index, frame] of report.frames.entries()) {
      const slot = missed.get(frame.index) ?? frame.scheduledMs
      lines.push(JSON.stringify([performance.timeOrigin + slot, lateness[index]]))
    }
  }
  const cpu = process.cpuUsage()
  lines.push(`cpu ${(cpu.user + cpu.system) / 1000}`)
  process.stdout.write(`${lines.join('\n')}\n`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const count = Number(process.argv[2])
  if (!Number.isInteger(count) || count < 1) {
    console.error('usage: node bench/timers-alongside.ts <schedules>')
    process.exitCode = 2
  } else await paceAlone(count)
}
