// The harness's own pacing error in a real-time row (reporting/extensions/pacing.ts), through the engine against
// the real offline GPT-Live server on the real-time clock: a row whose event loop is deliberately blocked far
// beyond the threshold carries the warning on its latency metrics, in the row, the console summary and the
// report; a row without that load carries its measured pacing and no warning; a virtual-clock row carries null.
// No timing is asserted: only the presence of the warning when the loop is blocked for 50 ms every 200 ms (five
// times the 10 ms threshold, every tenth frame).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runExtensionLines } from '../../../reporters/run-extension-lines.ts'
import { resultsDocument } from '../../gate/gate.test-helpers.ts'
import { scenarioModel } from '../../report/model.ts'
import { pacingSummary } from '../../report/render-pacing.ts'
import { scenarioSection } from '../../report/render-scenario.ts'
import type { PacingError } from '../../reporting/extensions/pacing.ts'
import type { ResultItem } from '../../reporting/result-schema.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import {
  BUNDLED_CRAWL_DATASET,
  bundledCrawlScenario,
  executeScenario,
  freshRunDirectory,
  offlineEnv,
  settingsFromToml,
} from '../single-turn/test-support.ts'

// The shortest bundled CRAWL request (7 s of caller audio): two of these runs pace in real time.
const SCENARIO = 'crawl_020_hours'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

async function run(options: { realTime: boolean; pacingWarningMs?: number }): Promise<ResultItem> {
  const settings = await settingsFromToml('crawl', [
    '[dataset]',
    `path = ${JSON.stringify(BUNDLED_CRAWL_DATASET)}`,
    '[execution]',
    'mode = "offline"',
    ...(options.pacingWarningMs === undefined ? [] : [`pacing_warning_ms = ${options.pacingWarningMs}`]),
    '[audio]',
    `real_time = ${options.realTime}`,
  ])
  const env = offlineEnv(settings, server, await freshRunDirectory(), 'responses')
  const execution = await executeScenario(await bundledCrawlScenario(SCENARIO), env)
  return execution.row
}

const pacingOf = (row: ResultItem): PacingError | null | undefined => row.observability?.live_evals?.pacing

const noEvidence = { details: null, details_problem: null, voice: null, voice_problem: null }

/** Blocks the event loop for `blockMs` every `everyMs`, as a harness far too busy for its calls would be. */
function overload(blockMs: number, everyMs: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + blockMs
    while (performance.now() < until) {
      // busy: nothing else runs on this thread meanwhile
    }
  }, everyMs)
  return () => clearInterval(timer)
}

describe('the pacing error of a real-time row', () => {
  it('a loop blocked for 50 ms every 200 ms: the row, the console and the report carry the warning', async () => {
    const stop = overload(50, 200)
    let row: ResultItem
    try {
      row = await run({ realTime: true })
    } finally {
      stop()
    }
    const pacing = pacingOf(row)
    expect(pacing?.frames).toBeGreaterThan(0)
    expect(pacing?.warning_threshold_ms).toBe(10)
    expect(pacing?.warning?.metrics).toContain('metrics.audio.response_latency_ms')
    expect(pacing?.warning?.message).toContain('above the 10 ms threshold')

    const console = runExtensionLines('responses', resultsDocument([row]))
    expect(console.join('\n')).toContain(`Pacing warning: the harness sent audio frames late in 1 row(s)`)
    expect(console.join('\n')).toContain(SCENARIO)

    const model = scenarioModel(row, noEvidence)
    expect(String(scenarioSection(model))).toContain('Pacing warning on latency')
    expect(String(pacingSummary([model]))).toContain('1 row(s) above the 10 ms threshold')
  }, 120_000)

  it('without that load the row records its frames’ pacing and no warning (threshold set well above a busy machine)', async () => {
    const row = await run({ realTime: true, pacingWarningMs: 1_000 })
    const pacing = pacingOf(row)
    expect(pacing?.frames).toBeGreaterThan(0)
    expect(pacing?.p50_ms).not.toBeNull()
    expect(pacing?.p99_ms).not.toBeNull()
    expect(pacing?.warning_threshold_ms).toBe(1_000)
    expect(pacing?.warning).toBeNull()
    expect(runExtensionLines('responses', resultsDocument([row])).join('\n')).not.toContain('Pacing warning')
    const model = scenarioModel(row, noEvidence)
    expect(String(scenarioSection(model))).toContain('harness pacing: p50')
    expect(String(scenarioSection(model))).not.toContain('Pacing warning')
  }, 120_000)

  it('a virtual-clock row records null: its frames have no wall-clock slot to be late for', async () => {
    const row = await run({ realTime: false })
    expect(pacingOf(row)).toBeNull()
    expect(String(scenarioSection(scenarioModel(row, noEvidence)))).toContain('not measured (virtual clock')
  })
})
