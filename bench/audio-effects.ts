// Acoustic effects throughput and memory (issue 10). Prints, for each of the seven conditions, how many times
// faster than real time one core processes a minute of real speech (the committed espeak-ng recording, looped),
// both in 20 ms frames (as live) and in 1 s chunks (as files); target: realistic >= 300x. Then the peak memory
// above baseline for a 10-minute recording processed streaming from WAV to WAV (target < 50 MB), measured in a
// child process so nothing else in this one counts, next to the same recording processed as one buffer.
// CPU time is printed beside wall time because the machine may be shared: CPU time barely moves with load.
// Run: npx node bench/audio-effects.ts [--before <dir>]   (--before: see bench/before-after.ts; the memory part
// is skipped in before/after runs)
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import {
  beforeRoot,
  benchArguments,
  benchImport,
  benchRoot,
  compareBeforeAfter,
  printFigures,
} from './before-after.ts'
import { median } from './median.ts'

const { applyRealism, CONDITIONS, processWavFile } = await benchImport<
  typeof import('../src/audio/effects/index.ts')
>('src/audio/effects/index.ts')
const { readMonoWavFile } = await benchImport<typeof import('../src/audio/wav.ts')>('src/audio/wav.ts')
const { MonoWavReader, WavWriter } =
  await benchImport<typeof import('../src/audio/wav-stream.ts')>('src/audio/wav-stream.ts')

const CALLER = path.join(import.meta.dirname, '..', 'src', 'audio', 'test-assets', 'caller-request.wav')
const MINUTE_SAMPLES = 24000 * 60
const REPEATS = 3

async function looped(sampleCount: number): Promise<Int16Array> {
  const speech = (await readMonoWavFile(CALLER)).samples
  const out = new Int16Array(sampleCount)
  for (let offset = 0; offset < sampleCount; offset += speech.length) {
    out.set(speech.subarray(0, Math.min(speech.length, sampleCount - offset)), offset)
  }
  return out
}

async function throughput(): Promise<Record<string, number>> {
  const minute = await looped(MINUTE_SAMPLES)
  await applyRealism(minute.subarray(0, 24000), { condition: 'realistic', seed: 1 }) // load wasm and the bed
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  )
  console.log('condition          chunk   wall ms  cpu ms  x real time (wall)  x real time (cpu)')
  const figures: Record<string, number> = {}
  for (const condition of CONDITIONS) {
    for (const chunkMs of [20, 1000]) {
      const walls: number[] = []
      const cpus: number[] = []
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const cpu = process.cpuUsage()
        const started = performance.now()
        await applyRealism(minute, { condition, seed: 41, chunkMs })
        walls.push(performance.now() - started)
        const used = process.cpuUsage(cpu)
        cpus.push((used.user + used.system) / 1000)
      }
      const wall = median(walls)
      const cpuMs = median(cpus)
      console.log(
        `${condition.padEnd(18)} ${`${chunkMs} ms`.padStart(7)} ${wall.toFixed(1).padStart(8)} ${cpuMs.toFixed(1).padStart(7)}` +
          `  ${(60_000 / wall).toFixed(0).padStart(18)}x ${(60_000 / cpuMs).toFixed(0).padStart(17)}x`,
      )
      figures[`${condition} ${chunkMs} ms, x real time (cpu)`] = 60_000 / cpuMs
    }
  }
  return figures
}

/** Child mode: process `input` (streaming or as one buffer) and print baseline and peak RSS in MB. */
async function memoryChild(mode: string, input: string, output: string): Promise<void> {
  // Baseline: modules, wasm and the background bed loaded, one second processed.
  await applyRealism(await looped(24000), { condition: 'realistic', seed: 1 })
  globalThis.gc?.()
  const baseline = process.memoryUsage().rss
  const before = process.resourceUsage().maxRSS * 1024
  if (mode === 'streaming') {
    await processWavFile(input, output, { condition: 'realistic', seed: 41 })
  } else {
    const samples = (await readMonoWavFile(input)).samples
    await applyRealism(samples, { condition: 'realistic', seed: 41 })
  }
  const peak = Math.max(before, process.resourceUsage().maxRSS * 1024)
  console.log(JSON.stringify({ baselineMb: baseline / 2 ** 20, peakMb: peak / 2 ** 20 }))
}

async function memory(): Promise<void> {
  const folder = await mkdtemp(path.join(tmpdir(), 'live-evals-bench-audio-'))
  try {
    const input = path.join(folder, 'ten-minutes.wav')
    const writer = await WavWriter.create(input)
    const second = await looped(24000 * 7) // written a few seconds at a time: this process stays small too
    for (let written = 0; written < 600; written += 7) {
      await writer.write(second.subarray(0, Math.min(7, 600 - written) * 24000))
    }
    await writer.close()
    await using reader = await MonoWavReader.open(input)
    console.log(`\n10-minute recording: ${(reader.info.durationMs / 60_000).toFixed(1)} min, realistic`)
    for (const mode of ['streaming', 'whole-buffer']) {
      const printed = execFileSync(
        process.execPath,
        [
          '--expose-gc',
          import.meta.filename,
          '--root',
          benchRoot,
          '--memory-child',
          mode,
          input,
          path.join(folder, `${mode}.wav`),
        ],
        { encoding: 'utf8' },
      )
      const { baselineMb, peakMb } = JSON.parse(printed.trim().split('\n').at(-1) as string)
      console.log(
        `${mode.padEnd(13)} baseline ${baselineMb.toFixed(1)} MB, peak ${peakMb.toFixed(1)} MB, ` +
          `above baseline ${(peakMb - baselineMb).toFixed(1)} MB`,
      )
    }
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

const childAt = process.argv.indexOf('--memory-child')
const before = beforeRoot()
if (childAt >= 0) {
  const [mode, input, output] = process.argv.slice(childAt + 1) as [string, string, string]
  await memoryChild(mode, input, output)
} else if (before !== null) {
  await compareBeforeAfter(import.meta.filename, before, 2)
} else if (benchArguments().includes('--no-memory') || process.argv.includes('--root')) {
  printFigures(await throughput())
} else {
  printFigures(await throughput())
  await memory()
}
