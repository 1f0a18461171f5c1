// The unit run over time, for bench/test-cpu.ts: how idle the machine's cores were in each stretch of the run
// (from /proc/stat, sampled every second) and which test files were running then. A run whose cores sit idle
// while its workers are all taken by files that mostly wait (real-time calls, child processes started one at a
// time) gets shorter from a different order or more workers, not from less CPU.
import { readFileSync } from 'node:fs'

interface CoreTicks {
  at: number
  idle: number
  total: number
}

function coreTicks(): CoreTicks {
  // The first line sums every core: user nice system idle iowait irq softirq steal ...
  const [first = ''] = readFileSync('/proc/stat', 'utf8').split('\n')
  const ticks = first.trim().split(/\s+/).slice(1).map(Number)
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0)
  return { at: Date.now(), idle, total: ticks.reduce((sum, value) => sum + value, 0) }
}

/** Samples the cores' idle ticks every second until the returned function is called, which returns them. */
export function sampleCores(): () => CoreTicks[] {
  const samples = [coreTicks()]
  const timer = setInterval(() => samples.push(coreTicks()), 1000)
  return () => {
    clearInterval(timer)
    samples.push(coreTicks())
    return samples
  }
}

export interface TimedFile {
  file: string
  startedAt: number
  endedAt: number
}

/**
 * One line per `step` seconds of the run: the share of core time idle in it, how many test files ran in it, and
 * the files that ran through most of it.
 */
export function timelineLines(
  startedAt: number,
  samples: readonly CoreTicks[],
  files: readonly TimedFile[],
  step = 20,
): string[] {
  const lines: string[] = []
  const last = samples.at(-1)?.at ?? startedAt
  for (let from = startedAt; from < last; from += step * 1000) {
    const to = from + step * 1000
    // From the last sample at or before the stretch's start (the ticks between it and the next count too) to the
    // last one inside it.
    const first = samples.findLast((sample) => sample.at <= from) ?? samples[0]
    const end = samples.findLast((sample) => sample.at <= to)
    const idle =
      first === undefined || end === undefined || end.total === first.total
        ? null
        : (100 * (end.idle - first.idle)) / (end.total - first.total)
    const running = files.filter((file) => file.startedAt < to && file.endedAt > from)
    const through = running
      .filter((file) => Math.min(file.endedAt, to) - Math.max(file.startedAt, from) >= (step * 1000) / 2)
      .map((file) => file.file.split('/').at(-1))
    lines.push(
      `${String((from - startedAt) / 1000).padStart(5)} s  idle ${idle === null ? '   ?' : `${idle.toFixed(0).padStart(3)}%`}` +
        `  ${String(running.length).padStart(3)} files  ${through.join(' ')}`,
    )
  }
  return lines
}
