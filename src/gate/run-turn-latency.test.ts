// RUN's latency by turn kind in the report's and the gate summary's tables, read from the rows' `run_turns`
// extension, on constructed RUN rows whose figures are worked out by hand below.

import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { loadRun } from '../report/load-run.ts'
import { runReportModel } from '../report/model.ts'
import { renderRunReport } from '../report/render-run.ts'
import type { RunTurnMetrics } from '../reporting/extensions/run-turns.ts'
import { withRowExtension } from '../reporting/extensions/with-row-extension.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { DEFAULT_GATE_OPTIONS, evaluateGate } from './evaluate.ts'
import { gateFile, resultsDocument, row } from './gate.test-helpers.ts'
import { latencySplit } from './latency.ts'
import { gateMarkdown } from './markdown.ts'

type KindSummary = RunTurnMetrics['time_to_verified_answer_ms']['tool_turns']

/** A RUN row: a call that answered `requests` responses, with its turn kinds as `run_turns` records them. */
function call(id: string, tool: KindSummary | null, nonTool: KindSummary): ResultItem {
  const built = row({ id, latencyMs: 500 })
  const opportunities = built.metrics.audio.response_opportunities
  if (opportunities === undefined) throw new Error('the builder measures opportunities')
  const requests = (tool?.count ?? 0) + nonTool.count
  const multiResponse: ResultItem = {
    ...built,
    metrics: {
      ...built.metrics,
      audio: {
        ...built.metrics.audio,
        response_opportunities: {
          ...opportunities,
          caller_turn_count: requests,
          response_eligible_count: requests,
          response_total: requests,
          response_count: requests,
        },
      },
    },
  }
  if (tool === null) return multiResponse
  return withRowExtension(multiResponse, 'run_turns', {
    yield_rate: null,
    yield_latency_ms: null,
    barge_ins: { exercised: 0, unexercised: 0 },
    time_to_verified_answer_ms: { tool_turns: tool, non_tool_turns: nonTool },
  })
}

// Hand-worked figures (nearest-rank percentiles, as everywhere in the report):
// - without tool work, call means 400, 900, 250, 700 → sorted 250 400 700 900, n 4: P50 is the 2nd (400),
//   P90 and P95 the 4th (900); requests 2 + 1 + 3 + 2 = 8.
// - tool turns, call means 1200 and 2600 (C asked none, D's one was never answered: no sample, not 0), n 2:
//   P50 the 1st (1200), P90 and P95 the 2nd (2600); requests 1 + 2 + 0 + 1 = 4; one call answered none.
const CALLS = [
  call('a', { count: 1, mean_ms: 1_200 }, { count: 2, mean_ms: 400 }),
  call('b', { count: 2, mean_ms: 2_600 }, { count: 1, mean_ms: 900 }),
  call('c', { count: 0, mean_ms: null }, { count: 3, mean_ms: 250 }),
  call('d', { count: 1, mean_ms: null }, { count: 2, mean_ms: 700 }),
  row({ id: 'e', status: 'infrastructure_error' }),
]

describe('RUN latency by turn kind', () => {
  test('one sample per call and kind, its run_turns mean; an unanswered kind gives no sample', () => {
    const { run_turns: turns, rows_without_turn_latency } = latencySplit(CALLS)
    expect(turns.calls).toBe(4)
    expect(turns.non_tool_turns).toEqual({
      call_means: { n: 4, mean: 562.5, p50: 400, p90: 900, p95: 900, min: 250, max: 900 },
      requests: 8,
      calls_without_answer: 0,
    })
    expect(turns.tool_turns).toEqual({
      call_means: { n: 2, mean: 1_900, p50: 1_200, p90: 2_600, p95: 2_600, min: 1_200, max: 2_600 },
      requests: 4,
      calls_without_answer: 1,
    })
    expect(rows_without_turn_latency).toBe(0)
  })

  test('a kind no call answered is unknown (null), never 0', () => {
    const { run_turns: turns } = latencySplit([
      call('c', { count: 0, mean_ms: null }, { count: 3, mean_ms: 250 }),
    ])
    expect(turns.tool_turns.call_means).toMatchObject({ n: 0, mean: null, p50: null, p95: null })
  })

  test('a multi-response row without run_turns is the one the note counts (the four RUN calls are not)', () => {
    const split = latencySplit([...CALLS, call('old', null, { count: 3, mean_ms: null })])
    expect(split.rows_without_turn_latency).toBe(1)
  })

  test('the gate summary lists both kinds with the same figures', () => {
    const markdown = gateMarkdown(
      evaluateGate([gateFile(CALLS, { module: 'run' })], [], DEFAULT_GATE_OPTIONS),
    )
    expect(markdown).toContain(
      '| RUN calls, without tool work (mean per call), 8 requests | 4 | 400 ms | 900 ms | 900 ms |',
    )
    expect(markdown).toContain(
      '| RUN calls, tool turns (mean per call), 4 requests; 1 call(s) answered none, no sample | 2 | 1200 ms | 2600 ms | 2600 ms |',
    )
  })
})

describe('the run report page', () => {
  const folders: string[] = []
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true })
  })

  test('shows RUN calls by turn kind instead of "record only a mean", with dashes for the unknown', async () => {
    const runDir = await mkdtemp(join(tmpdir(), 'live-evals-run-turns-'))
    folders.push(runDir)
    const document = resultsDocument(CALLS, { module: 'run', id: 'run_offline_20261201_000000_000Z' })
    await writeFile(join(runDir, 'results.json'), JSON.stringify(document))
    const page = renderRunReport(runReportModel(await loadRun(runDir)))
    const latency = page.slice(
      page.indexOf('<table class="latency">'),
      page.indexOf('</table>', page.indexOf('<table class="latency">')),
    )
    const cells = (label: string) => {
      const rowHtml = latency.slice(latency.indexOf(label))
      return [...rowHtml.slice(0, rowHtml.indexOf('</tr>')).matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map(
        (m) => m[1],
      )
    }
    expect(cells('RUN calls: turns without tool work')).toEqual(['4', '400 ms', '900 ms', '900 ms', '–'])
    expect(cells('RUN calls: tool turns')).toEqual(['2', '1200 ms', '2600 ms', '2600 ms', '–'])
    expect(latency).toContain('8 request(s) in all')
    expect(latency).toContain('4 request(s) in all; 1 call(s) answered none: no sample')
    expect(page).not.toContain('record only a mean')
    // No single-response row in a RUN run: the empty per-response rows are left out rather than shown as 0/0.
    expect(latency).not.toContain('<td>turns without tool work</td>')
    expect(latency).not.toMatch(/NaN|undefined|Infinity/)
  })
})
