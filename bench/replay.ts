// Replay against recording: a few bundled CRAWL scenarios, both architectures, recorded live (real-time pacing)
// against loopback stand-ins of the services, then replayed from their cassettes with no stand-in answering.
// Prints per scenario the recording's and the replay's wall time and their ratio, and each cassette's size per
// minute of conversation (JSON and PCM together, over the assistant session's recorded duration).
// Run: npx node bench/replay.ts [--count N]   (default 3 scenarios)
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { executeLive, liveCrawlSettings, SENTINEL_KEY } from '../src/cassettes/cassette.test-helpers.ts'
import { readCassette } from '../src/cassettes/files.ts'
import { BUNDLED_CRAWL_DATASET } from '../src/phases/single-turn/test-support.ts'
import { loadDataset, type Scenario } from '../src/scenarios/index.ts'
import { startOfflineLiveServer } from '../src/testing/live-server/index.ts'
import { responsesRoute } from '../src/testing/responses-server/responses-route.ts'
import { startResponsesServer } from '../src/testing/responses-server/server.ts'

const countFlag = process.argv.indexOf('--count')
const count = countFlag === -1 ? 3 : Number(process.argv[countFlag + 1])
const live = await startOfflineLiveServer()
const responses = await startResponsesServer({
  routes: {
    'POST /v1/responses': responsesRoute({
      respond: () => ({ output: [{ type: 'message', text: 'Done.' }] }),
    }),
  },
})
const standIns = { live, responsesBaseURL: responses.baseURL }
const cassettes = await mkdtemp(join(tmpdir(), 'live-evals-bench-replay-'))
try {
  const dataset = await loadDataset(BUNDLED_CRAWL_DATASET)
  const scenarios = (dataset.scenarios as Scenario[]).slice(0, count)
  const record = await liveCrawlSettings(standIns, cassettes, {
    OPENAI_API_KEY: SENTINEL_KEY,
    LIVE_EVALS_MODE: 'live',
    LIVE_EVALS_RECORD: '1',
  })
  const replay = await liveCrawlSettings(standIns, cassettes, { LIVE_EVALS_MODE: 'replay' })
  console.log(
    'scenario__architecture                         record s  replay s  speed-up  cassette MB/min  outcome',
  )
  const ratios: number[] = []
  for (const scenario of scenarios) {
    for (const architecture of ['responses', 'client'] as const) {
      let started = performance.now()
      await executeLive(scenario, record, architecture, standIns, { register: true })
      const recordMs = performance.now() - started
      started = performance.now()
      const replayed = await executeLive(scenario, replay, architecture, standIns, { register: false })
      const replayMs = performance.now() - started
      const id = `${scenario.id}__${architecture}`
      const { cassette } = await readCassette(cassettes, id)
      const frames = cassette.sessions.find((session) => session.label === 'assistant')?.frames ?? []
      const minutes = (frames.at(-1)?.at_ms ?? 0) / 60_000
      let bytes = 0
      for (const name of await readdir(join(cassettes, id)))
        bytes += (await stat(join(cassettes, id, name))).size
      const outcome = (replayed.row.observability?.live_evals as { cassette?: { outcome?: string } })
        ?.cassette?.outcome
      ratios.push(recordMs / replayMs)
      console.log(
        `${id.padEnd(46)} ${(recordMs / 1000).toFixed(1).padStart(8)} ${(replayMs / 1000).toFixed(1).padStart(9)} ` +
          `${(recordMs / replayMs).toFixed(2).padStart(8)}x ${(bytes / 1024 / 1024 / Math.max(minutes, 1e-9)).toFixed(2).padStart(15)}  ${outcome}`,
      )
    }
  }
  ratios.sort((a, b) => a - b)
  console.log(
    `median speed-up of replay over its real-time recording: ${ratios[Math.floor(ratios.length / 2)]?.toFixed(2)}x (target >= 50x for RUN; replay paces in real time today)`,
  )
} finally {
  await Promise.all([live.close(), responses.close()])
  await rm(cassettes, { recursive: true, force: true })
}
