import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { captureIO } from '../cli/capture-io.ts'
import { run as reportCommand } from '../cli/report.ts'
import { DEFAULT_PRICES } from '../config/prices.ts'
import { type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { buildResultsDocument, withRunExtensions } from '../reporting/results-document.ts'
import { withAssistant } from '../reporting/row-assistant.ts'
import { anchorOf, escapeHtml, html, jsonText } from './html.ts'
import { loadRun } from './load-run.ts'
import { runReportModel } from './model.ts'
import { CONTENT_SECURITY_POLICY } from './page-assets.ts'
import { HOSTILE_TRANSCRIPT, writeSampleRun } from './report.test-helpers.ts'
import { diffState } from './state-diff.ts'
import { writeComparisonReport, writeRunReport } from './write-report.ts'

let folder = ''
let runDir = ''
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'live-evals-report-'))
  runDir = await mkdtemp(join(folder, 'crawl_offline_'))
  await writeSampleRun(runDir)
})
afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

describe('escaping', () => {
  test('interpolated text is escaped; fragments made by html are not escaped twice', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
    const inner = html`<b>${'<i>'}</b>`
    expect(html`<p>${inner}${['<', 1]}</p>`.text).toBe('<p><b>&lt;i&gt;</b>&lt;1</p>')
  })
  test('a transcript carrying <script> renders as text in the run report', async () => {
    const page = await readFile(await writeRunReport(runDir), 'utf8')
    expect(page).not.toContain(HOSTILE_TRANSCRIPT)
    expect(page).toContain(escapeHtml(HOSTILE_TRANSCRIPT))
    // The only script element is the page's own, allowed by hash.
    expect(page.match(/<script/g)).toHaveLength(1)
    expect(page).toContain('Rationale for booking_ok &lt;b&gt;bold?&lt;/b&gt;')
  })
})

describe('the run report page', () => {
  test('carries a Content-Security-Policy that allows nothing remote', async () => {
    const page = await readFile(join(runDir, 'report.html'), 'utf8')
    expect(page).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONTENT_SECURITY_POLICY)}">`,
    )
    expect(CONTENT_SECURITY_POLICY).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-/,
    )
    expect(CONTENT_SECURITY_POLICY).toContain("media-src 'self'")
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https?:|\*|unsafe/)
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//)
  })
  test('audio is referenced by relative path, and the page is written 0600', async () => {
    const path = join(runDir, 'report.html')
    const page = await readFile(path, 'utf8')
    expect(page).toContain('src="audio/booking_ok/conversation.wav"')
    expect((await stat(path)).mode & 0o777).toBe(0o600)
  })
  test('the summary: pass rate with its interval, infrastructure errors apart, metrics with n', async () => {
    const model = runReportModel(await loadRun(runDir))
    expect(model.counts).toEqual({ total: 3, passed: 1, failed: 1, infrastructure_errors: 1 })
    expect(model.pass_rate).toMatchObject({ successes: 1, n: 3 })
    expect(model.pass_rate.lower).toBeCloseTo(0.0615, 4)
    expect(model.scenario_count).toBe(3)
    expect(model.pass_rate_over).toBe('rows')
    const latency = model.metrics.find((metric) => metric.metric === 'response_latency_ms')
    // The infrastructure row measured nothing: n is 2, not 3.
    expect(latency).toMatchObject({ n: 2, mean: 800, p50: 400, p95: 1_200 })
    expect(model.latency.tool.n).toBe(1)
    expect(model.latency.conversational.n).toBe(1)
  })
  test('per scenario: voiced intervals from the stereo WAV, checks with evidence, state changes, problems', async () => {
    const model = runReportModel(await loadRun(runDir))
    const [ok, bad, broken] = model.scenarios
    expect(ok?.timeline.caller).toHaveLength(1)
    expect(ok?.timeline.caller[0]?.startMs).toBeCloseTo(200, -1)
    expect(ok?.timeline.assistant[0]?.startMs).toBeCloseTo(1_600, -1)
    expect(ok?.timeline.assistant[0]?.endMs).toBeCloseTo(2_600, -2)
    expect(ok?.state?.changes).toEqual([
      { path: 'reservations[0]', kind: 'added', after: { reservation_id: 'R-001', party_size: 4 } },
    ])
    expect(ok?.timeline.tool_calls[0]).toMatchObject({ name: 'create_reservation', at_ms: 1_400 })
    expect(bad?.failed_checks).toEqual([
      expect.objectContaining({ id: 'application_state', evidence: { missing: ['reservations[0]'] } }),
    ])
    expect(broken?.problems).toEqual([
      'no details file (the row names none)',
      'no conversation audio (the row names none)',
    ])
  })
  test('the timeline image is written beside the WAVs, without links', async () => {
    const svg = await readFile(join(runDir, 'audio', 'booking_ok', 'timeline.svg'), 'utf8')
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"')
    expect(svg).toContain('<title>caller voiced')
    expect(svg).not.toContain('data-seek-ms')
  })
})

/** A sample run under `prefix` whose results.json has its run block and rows rewritten by `change`. */
async function rewrittenSampleRun(
  prefix: string,
  change: (document: ResultsDocument) => { run: ResultsDocument['run']; rows: ResultsDocument['results'] },
): Promise<string> {
  const dir = await mkdtemp(join(folder, prefix))
  await writeSampleRun(dir)
  const file = join(dir, 'results.json')
  const { run, rows } = change(ResultsDocumentSchema.parse(JSON.parse(await readFile(file, 'utf8'))))
  const ids = rows.map((row) => row.scenario_id)
  await writeFile(file, JSON.stringify(buildResultsDocument(run, rows, ids)))
  return dir
}

describe('the assistants under test', () => {
  test('the run names every assistant of its rows, and each scenario its own; an unnamed row shows none', async () => {
    const named = ['maple-pharmacy', 'juniper-table', null]
    const twoDir = await rewrittenSampleRun('crawl_offline_two_', (document) => ({
      run: document.run,
      rows: document.results.map((row, index) => withAssistant(row, named[index] ?? null)),
    }))

    const model = runReportModel(await loadRun(twoDir))
    expect(model.run.assistants).toEqual(['maple-pharmacy', 'juniper-table'])
    expect(model.scenarios.map((scenario) => scenario.assistant)).toEqual(named)
    const page = await readFile(await writeRunReport(twoDir), 'utf8')
    expect(page).toContain(
      '<p class="meta assistants">assistants under test: <b>maple-pharmacy</b>, <b>juniper-table</b></p>',
    )
    const section = (id: string) =>
      page.slice(page.indexOf(`<section class="scenario" id="${id}"`)).split('</section>')[0]
    expect(section(anchorOf('booking_ok', 1))).toContain('assistant under test: <b>maple-pharmacy</b>')
    expect(section(anchorOf('booking_bad', 1))).toContain('assistant under test: <b>juniper-table</b>')
    expect(section(anchorOf('booking_broken', 1))).not.toContain('assistant under test')
  })
  test('a run whose rows name no assistant shows no assistants line', async () => {
    const page = await readFile(await writeRunReport(runDir), 'utf8')
    expect(page).not.toContain('assistant under test')
    expect(page).not.toContain('assistants under test')
  })
})

describe('where the scenarios came from', () => {
  test('a run of several spec files names every dataset, not only the first (run.dataset)', async () => {
    const datasets = ['scenarios/run/faults.json', 'scenarios/run/restaurant.json']
    const dir = await rewrittenSampleRun('run_offline_datasets_', (document) => ({
      run: withRunExtensions({ ...document.run, dataset: 'scenarios/run/faults.json' }, { datasets }),
      rows: document.results,
    }))
    const page = await readFile(await writeRunReport(dir), 'utf8')
    expect(page).toContain('dataset scenarios/run/faults.json, scenarios/run/restaurant.json</p>')
  })
  test('a run of one dataset names it', async () => {
    const document = ResultsDocumentSchema.parse(
      JSON.parse(await readFile(join(runDir, 'results.json'), 'utf8')),
    )
    expect(runReportModel(await loadRun(runDir)).run.dataset).toBe(document.run.dataset)
  })
})

describe('state differences', () => {
  test('added, removed and changed leaves by path', () => {
    expect(
      diffState({ a: 1, b: { c: [1, 2] }, gone: true }, { a: 2, b: { c: [1, 3, 4] }, 'odd key': null }),
    ).toEqual([
      { path: 'a', kind: 'changed', before: 1, after: 2 },
      { path: 'b.c[1]', kind: 'changed', before: 2, after: 3 },
      { path: 'b.c[2]', kind: 'added', after: 4 },
      { path: 'gone', kind: 'removed', before: true },
      { path: '["odd key"]', kind: 'added', after: null },
    ])
  })
  test('very deep nesting compares as a whole instead of recursing without bound', () => {
    let deep: unknown = 1
    for (let i = 0; i < 10_000; i++) deep = [deep]
    expect(diffState(deep, 2)).toHaveLength(1)
    expect(diffState({ x: deep }, { x: deep })).toEqual([])
    expect(jsonText(deep)).toBe('(nested too deeply to show)')
  })
})

describe('live-evals report', () => {
  test('two runs give two reports and one comparison page linking to them', async () => {
    const other = await mkdtemp(join(folder, 'crawl_offline_responses_'))
    await writeSampleRun(other)
    const io = captureIO()
    const out = join(folder, 'comparison.html')
    expect(await reportCommand([runDir, other, '--out', out], io)).toBe(0)
    const page = await readFile(out, 'utf8')
    expect(page).toContain('Comparison of 2 runs')
    expect(page).toMatch(/href="crawl_offline_[^/"]+\/report.html#scenario-booking_ok-t1"/)
    expect(page).toContain('<td>same</td>')
  })
  test('one run folder refuses the options of a comparison, naming each; it writes nothing then', async () => {
    for (const [option, value] of [
      ['--out', join(folder, 'one.html')],
      ['--prices', join(folder, 'prices.json')],
      ['--reference-model', 'gpt-live-1'],
    ] as const) {
      const io = captureIO()
      expect(await reportCommand([runDir, option, value], io), option).toBe(2)
      expect(io.stderr()).toContain(
        `live-evals report: ${option} applies to a comparison of two or more runs`,
      )
      expect(io.stdout()).toBe('')
    }
  })
  test('runs of one model say that --prices and --reference-model were not used', async () => {
    const other = await mkdtemp(join(folder, 'crawl_offline_same_model_'))
    await writeSampleRun(other)
    const prices = join(folder, 'prices.json')
    await writeFile(prices, JSON.stringify(DEFAULT_PRICES))
    const io = captureIO()
    const out = join(folder, 'same-model.html')
    const code = await reportCommand(
      [runDir, other, '--out', out, '--prices', prices, '--reference-model', 'gpt-live-1'],
      io,
    )
    expect(code, io.stderr()).toBe(0)
    expect(io.stderr()).toContain(
      'live-evals report: --prices and --reference-model not used: they apply to runs of several GPT-Live models',
    )
  })
  test('--out into a missing folder names that folder, not a temporary file', async () => {
    const other = await mkdtemp(join(folder, 'crawl_offline_missing_out_'))
    await writeSampleRun(other)
    const io = captureIO()
    expect(await reportCommand([runDir, other, '--out', join(folder, 'absent', 'c.html')], io)).toBe(2)
    expect(io.stderr()).toContain(`the folder ${join(folder, 'absent')} does not exist`)
    expect(io.stderr()).not.toContain('.tmp')
  })
  test('a folder without results.json is bad input with the path named', async () => {
    const io = captureIO()
    expect(await reportCommand([join(folder, 'nothing-here')], io)).toBe(2)
    expect(io.stderr()).toContain('nothing-here/results.json: cannot be read (ENOENT)')
    expect(await reportCommand([], captureIO())).toBe(2)
  })
  test('scenarioReportLink points at the section the report writes', async () => {
    const { scenarioReportLink } = await import('./write-report.ts')
    const link = scenarioReportLink(runDir, 'booking_ok')
    expect(link).toBe(`${join(runDir, 'report.html')}#scenario-booking_ok-t1`)
    expect(await readFile(join(runDir, 'report.html'), 'utf8')).toContain(`id="${link.split('#')[1]}"`)
  })
  test('writeComparisonReport defaults to comparison.html beside the first run', async () => {
    expect(await writeComparisonReport([runDir])).toBe(join(folder, 'comparison.html'))
  })
})

describe('writeScenarioTimelineImage', () => {
  test("writes one row's image from its artifacts, before results.json exists, and null without audio", async () => {
    const { writeScenarioTimelineImage } = await import('./write-report.ts')
    const { row } = await import('../gate/gate.test-helpers.ts')
    const lone = await mkdtemp(join(folder, 'during-run-'))
    await writeSampleRun(lone)
    await rm(join(lone, 'results.json'))
    const withAudio = {
      ...row({ id: 'booking_ok' }),
      artifacts: {
        input_audio: null,
        output_audio: null,
        conversation_audio: 'audio/booking_ok/conversation.wav',
        conversation_transcript: null,
        events: null,
        details: 'transcripts/booking_ok.json',
      },
    }
    expect(await writeScenarioTimelineImage(lone, withAudio)).toBe(
      join(lone, 'audio', 'booking_ok', 'timeline.svg'),
    )
    const noAudio = {
      ...withAudio,
      artifacts: { ...withAudio.artifacts, conversation_audio: null, details: null },
    }
    expect(await writeScenarioTimelineImage(lone, noAudio)).toBeNull()
  })
})

describe('repeated trials in the report', () => {
  test('pass^1 and pass^k per scenario appear when a scenario ran more than once', async () => {
    const { row, resultsDocument } = await import('../gate/gate.test-helpers.ts')
    const { writeFile } = await import('node:fs/promises')
    const trialsDir = await mkdtemp(join(folder, 'trials-'))
    const rows = [1, 2, 3].map((trial) => row({ id: 'a', trial, status: trial === 2 ? 'failed' : 'passed' }))
    await writeFile(join(trialsDir, 'results.json'), JSON.stringify(resultsDocument(rows)))
    const model = runReportModel(await loadRun(trialsDir))
    // c = 2 of n = 3: pass^1 = 2/3, pass^2 = C(2,2)/C(3,2) = 1/3, pass^3 = C(2,3)/C(3,3) = 0
    expect(model.trials?.scenarios).toMatchObject([
      { scenario_id: 'a', trials: 3, passed: 2, pass_1: 2 / 3, pass_k: 0, pass_hat: [2 / 3, 1 / 3, 0] },
    ])
    // Every trial, the failed one too, measured 400 ms: n = 3 and no spread
    expect(model.trials?.scenarios[0]?.metrics.response_latency_ms).toMatchObject({
      n: 3,
      mean: 400,
      stdev: 0,
    })
    const page = await readFile(await writeRunReport(trialsDir), 'utf8')
    expect(page).toContain('<h2 id="trials">Repeated trials</h2>')
    expect(page).toContain('0.667 · 0.333 · 0.000')
    expect(page).toContain('400 ms ± 0 ms [400 ms–400 ms], n=3')
    expect(page).toContain('id="scenario-a-t2"')
    // The cards: one scenario of three rows, the interval over that one scenario.
    expect(model.scenario_count).toBe(1)
    expect(model.pass_rate_over).toBe('scenarios')
    expect(model.pass_rate).toMatchObject({ n: 1, estimate: 2 / 3 })
    expect(page).toContain('scenarios<b>1</b><span class="meta">3 rows</span>')
    expect(page).toContain('n=1 scenarios (trials are not independent draws)')
  })
  test('a `-t "trial 2/3"` subset reads like the single-trial run of its rows', async () => {
    const { row, resultsDocument } = await import('../gate/gate.test-helpers.ts')
    const { writeFile } = await import('node:fs/promises')
    const subsetDir = await mkdtemp(join(folder, 'subset-'))
    const rows = ['a', 'b', 'c', 'd', 'e'].map((id) =>
      row({ id, trial: 2, status: id === 'e' ? 'failed' : 'passed' }),
    )
    await writeFile(join(subsetDir, 'results.json'), JSON.stringify(resultsDocument(rows)))
    const model = runReportModel(await loadRun(subsetDir))
    expect(model.trials).toBeNull()
    expect(model.pass_rate_over).toBe('rows')
    expect(model.pass_rate).toMatchObject({ successes: 4, n: 5 })
    const page = await readFile(await writeRunReport(subsetDir), 'utf8')
    expect(page).not.toContain('Repeated trials')
    expect(page).toContain('scenarios<b>5</b></div>')
  })
  test('condition robustness per source scenario and overall, for WALK rows under several conditions', async () => {
    const { row, resultsDocument } = await import('../gate/gate.test-helpers.ts')
    const { writeFile } = await import('node:fs/promises')
    const walkDir = await mkdtemp(join(folder, 'walk-'))
    const recorded = (id: string, source: string, condition: string, passed: boolean) => ({
      ...row({ id, status: passed ? 'passed' : 'failed' }),
      recording: {
        id: 'r',
        path: `audio/${id}.wav`,
        condition,
        metadata: { generation: { source_scenario_id: source } },
      },
    })
    const rows = [
      recorded('w1_clean', 'crawl_001', 'clean', true),
      recorded('w1_phone', 'crawl_001', 'phone', true),
      recorded('w3_clean', 'crawl_003', 'clean', true),
      recorded('w3_phone', 'crawl_003', 'phone', false),
    ]
    await writeFile(join(walkDir, 'results.json'), JSON.stringify(resultsDocument(rows, { module: 'walk' })))
    const model = runReportModel(await loadRun(walkDir))
    expect(model.robustness).toMatchObject({ sources: 2, robust: 1 })
    const page = await readFile(await writeRunReport(walkDir), 'utf8')
    expect(page).toContain('<h2 id="robustness">Condition robustness</h2>')
    expect(page).toContain('robust<b>1/2 of 2 source scenarios</b>')
    expect(page).toContain('<tr data-robust="false"><td>crawl_003</td><td>no: phone</td>')
    expect(page).toContain('<td data-passed="false">0/1 passed</td>')
  })
})
