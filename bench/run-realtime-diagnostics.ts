// Before/after for bench/run-realtime.ts (compare: the bench of another checkout and this one, alternately, in
// their own processes). Its CPU profile and GC trace are in cpu-profile.ts.
import { spawn } from 'node:child_process'
import { join } from 'node:path'

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
