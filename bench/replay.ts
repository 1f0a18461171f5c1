// Replay against recording, per phase: bundled CRAWL, WALK and RUN scenarios, both architectures, recorded in live
// mode (real-time pacing, every service answered by the dress-rehearsal server on loopback), then replayed from
// their cassettes with the server closed and no key, on the virtual clock. Each row goes through the engine whole
// (caller audio, conversation, grading with the judge, artifacts), in both modes.
// Prints per scenario the recording's and the replay's wall time and their ratio, the conversation's length and
// its cassette's size per minute of conversation (JSON and PCM together); then per phase the median and the
// slowest ratio. Recordings run a few at once (each is timed on its own); replays one after another, so no replay
// shares the machine with another.
// Run: npx node bench/replay.ts [--phases crawl,walk,run] [--count N]   (N scenarios per dataset, default 2)
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import {
  BUNDLED_DATASETS,
  type BundledCase,
  type BundledPhase,
  bundledCases,
  bundledSettingsByDataset,
  executeCase,
  rehearsalRecordingEnv,
} from '../src/cassettes/bundled-executions.test-helpers.ts'
import { readCassette } from '../src/cassettes/files.ts'
import type { PhaseSettings } from '../src/config/index.ts'
import { createRateLimiter } from '../src/models/rate-limiter.ts'
import { startRehearsalServer } from '../src/testing/rehearsal/index.ts'
import { median } from './median.ts'

const argument = (name: string) => {
  const at = process.argv.indexOf(name)
  return at === -1 ? undefined : process.argv[at + 1]
}
const phases = (argument('--phases') ?? 'crawl,walk,run').split(',') as BundledPhase[]
const count = Number(argument('--count') ?? 2)
const RECORDINGS_AT_ONCE = 4

const dir = await mkdtemp(join(tmpdir(), 'live-evals-bench-replay-'))
const cassettes = join(dir, 'cassettes')

const all = await bundledCases(phases)
const perDataset = new Map<string, number>()
const cases = all.filter((kase) => {
  const key = `${kase.dataset} ${kase.architecture}`
  perDataset.set(key, (perDataset.get(key) ?? 0) + 1)
  return (perDataset.get(key) as number) <= count
})

const settingsFor = (env: Record<string, string>) => bundledSettingsByDataset(phases, env, cassettes)

const recordMs = new Map<string, number>()
const replayMs = new Map<string, number>()
const outcomes = new Map<string, string>()
try {
  const server = await startRehearsalServer({ datasets: phases.flatMap((phase) => BUNDLED_DATASETS[phase]) })
  process.env.OPENAI_BASE_URL = server.baseURL
  try {
    const live = await settingsFor(rehearsalRecordingEnv(server, 'sk-bench-replay-recording'))
    const limiter = createRateLimiter({ maxConcurrent: RECORDINGS_AT_ONCE })
    await Promise.all(
      cases.map((kase) =>
        limiter.run(async () => {
          const started = performance.now()
          await executeCase(kase, live.get(kase.dataset) as PhaseSettings, join(dir, 'recorded', kase.phase))
          recordMs.set(kase.id, performance.now() - started)
        }),
      ),
    )
  } finally {
    await server.close()
  }
  const replay = await settingsFor({ LIVE_EVALS_MODE: 'replay' })
  for (const kase of cases) {
    const started = performance.now()
    const execution = await executeCase(
      kase,
      replay.get(kase.dataset) as PhaseSettings,
      join(dir, 'replayed', kase.phase),
    )
    replayMs.set(kase.id, performance.now() - started)
    const block = execution.row.observability?.live_evals as { cassette?: { outcome?: string } } | undefined
    outcomes.set(kase.id, block?.cassette?.outcome ?? 'no cassette block')
  }

  console.log(
    'scenario__architecture                                 record s  replay s  speed-up  conversation s  cassette MB/min  replay',
  )
  const ratios = new Map<BundledPhase, number[]>()
  for (const kase of cases) {
    const { minutes, bytes } = await conversationOf(kase)
    const record = recordMs.get(kase.id) as number
    const replayed = replayMs.get(kase.id) as number
    const ratio = record / replayed
    ratios.set(kase.phase, [...(ratios.get(kase.phase) ?? []), ratio])
    console.log(
      `${kase.id.padEnd(54)} ${(record / 1000).toFixed(1).padStart(8)} ${(replayed / 1000).toFixed(2).padStart(9)} ` +
        `${ratio.toFixed(1).padStart(8)}x ${(minutes * 60).toFixed(1).padStart(15)} ` +
        `${(bytes / 1024 / 1024 / minutes).toFixed(2).padStart(16)}  ${outcomes.get(kase.id)}`,
    )
  }
  for (const [phase, values] of ratios) {
    const sorted = [...values].sort((a, b) => a - b)
    const target = phase === 'run' ? ' (target for a RUN conversation: >= 50x)' : ''
    console.log(
      `${phase.toUpperCase()}: replay is ${median(sorted).toFixed(1)}x faster than its real-time recording (median of ${sorted.length}), ` +
        `${(sorted[0] as number).toFixed(1)}x at the slowest${target}`,
    )
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}

/** The conversation's length (the assistant session's last frame) and the cassette folder's size. */
async function conversationOf(kase: BundledCase): Promise<{ minutes: number; bytes: number }> {
  const { cassette, folder } = await readCassette(cassettes, kase.id)
  const frames = cassette.sessions.find((session) => session.label === 'assistant')?.frames ?? []
  let bytes = 0
  for (const name of await readdir(folder)) bytes += (await stat(join(folder, name))).size
  return { minutes: Math.max(frames.at(-1)?.at_ms ?? 0, 1) / 60_000, bytes }
}
