// HTML report size and speed for a 100-scenario run. The run is synthesized from a real run's rows: each of its
// rows is repeated under new ids until there are 100, its WAVs and details hard-linked (same bytes, no copies).
// Prints the report's size, the time to write it (load + model + render + timeline images + atomic write) and the
// time chromium takes to load and lay it out, each also as a ratio to the conversation audio the report covers.
// The machine may be shared, so it prints the load average and the median of several rounds.
// Run: npx node bench/report.ts [<run-dir>] [--before <dir>]   (default run: the newest results/crawl run with a
// results.json; --before: see bench/before-after.ts, each tree writes and renders its own report of the same rows)

import { existsSync } from 'node:fs'
import { link, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { beforeRoot, benchArguments, benchImport, compareBeforeAfter, printFigures } from './before-after.ts'
import { median } from './median.ts'

const before = beforeRoot()
if (before !== null) {
  await compareBeforeAfter(import.meta.filename, before, 1)
  process.exit(0)
}
const { chromiumUnavailable, launchChromium } = await benchImport<
  typeof import('../src/report/chromium.test-helpers.ts')
>('src/report/chromium.test-helpers.ts')
const { serveFolder } = await benchImport<typeof import('../src/report/static-server.test-helpers.ts')>(
  'src/report/static-server.test-helpers.ts',
)
const { writeRunReportFiles } = await benchImport<typeof import('../src/report/write-report.ts')>(
  'src/report/write-report.ts',
)
const { buildResultsDocument } = await benchImport<typeof import('../src/reporting/results-document.ts')>(
  'src/reporting/results-document.ts',
)
const { parseResultsDocument } = await benchImport<typeof import('../src/reporting/results-file.ts')>(
  'src/reporting/results-file.ts',
)

const SCENARIOS = 100
const ROUNDS = 3

async function newestRun(): Promise<string> {
  const root = resolve('results/crawl')
  const names = existsSync(root) ? await readdir(root) : []
  const runs = names
    .filter((name) => existsSync(join(root, name, 'results.json')))
    .sort((a, b) => a.slice(-23).localeCompare(b.slice(-23)))
  const newest = runs.at(-1)
  if (newest === undefined)
    throw new Error(
      'no run in results/crawl: run `LIVE_EVALS_MODE=offline npx vitest run --project crawl` first',
    )
  return join(root, newest)
}

/**
 * The run's rows as the measured tree reads them. A before tree refuses keys added after it (its schema is
 * strict): those are dropped here, by the paths its own error names, and said so, so both trees render the
 * same rows less what the older one cannot know.
 */
function parseForThisTree(text: string, runSource: string): ReturnType<typeof parseResultsDocument> {
  const json = JSON.parse(text) as Record<string, unknown>
  const dropped = new Set<string>()
  for (;;) {
    try {
      const parsed = parseResultsDocument(JSON.stringify(json), { source: runSource })
      if (dropped.size > 0) console.log(`dropped keys this tree does not know: ${[...dropped].join(', ')}`)
      return parsed
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      // zod: `<path>: Unrecognized key: "a"` or `<path>: Unrecognized keys: "a", "b"`.
      const unknown = [...message.matchAll(/([\w.[\]]+): Unrecognized keys?: ((?:"\w+"(?:, )?)+)/g)]
      if (unknown.length === 0 || dropped.size > 100) throw error
      for (const [, at, listed] of unknown) {
        let node: unknown = json
        for (const part of (at as string).split(/[.[\]]+/).filter(Boolean)) {
          node = (node as Record<string, unknown>)?.[part]
        }
        for (const [, key] of (listed as string).matchAll(/"(\w+)"/g)) {
          if (node !== null && typeof node === 'object')
            delete (node as Record<string, unknown>)[key as string]
          dropped.add(`${(at as string).replace(/\[\d+\]/g, '[]')}.${key}`)
        }
      }
    }
  }
}

const source = resolve(benchArguments()[0] ?? (await newestRun()))
const original = parseForThisTree(await readFile(join(source, 'results.json'), 'utf8'), source)
const measured = original.results.filter((row) => row.artifacts.conversation_audio !== null)
if (measured.length === 0) throw new Error(`${source} has no row with conversation audio to repeat`)

const target = await mkdtemp(join(tmpdir(), 'live-evals-report-bench-'))
const rows = []
let audioMs = 0
for (let index = 0; index < SCENARIOS; index++) {
  const base = measured[index % measured.length] as (typeof measured)[number]
  const id = `${base.scenario_id}.copy${String(index).padStart(3, '0')}`
  const artifacts = { ...base.artifacts }
  for (const key of Object.keys(artifacts) as (keyof typeof artifacts)[]) {
    const path = artifacts[key]
    if (path === null) continue
    const renamed = path.replaceAll(base.scenario_id, id)
    await mkdir(dirname(join(target, renamed)), { recursive: true })
    await link(join(source, path), join(target, renamed))
    artifacts[key] = renamed
  }
  audioMs +=
    (((await stat(join(target, artifacts.conversation_audio as string))).size - 44) / 4 / 24_000) * 1000
  rows.push({ ...base, scenario_id: id, artifacts })
}
const document = buildResultsDocument(original.run, rows, [])
await writeFile(join(target, 'results.json'), JSON.stringify(document))

const writeTimes: number[] = []
let htmlPath = ''
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now()
  htmlPath = (await writeRunReportFiles(target)).html
  writeTimes.push(performance.now() - started)
}
const bytes = (await stat(htmlPath)).size
const audioMinutes = audioMs / 60_000
console.log(
  `report of ${SCENARIOS} scenarios (rows of ${source}), ${audioMinutes.toFixed(1)} min of conversation audio`,
)
console.log(
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
)
console.log(
  `report.html: ${(bytes / 1024).toFixed(0)} KiB (${(bytes / SCENARIOS / 1024).toFixed(1)} KiB per scenario)`,
)
console.log(
  `write (load, WAV analysis, render, ${SCENARIOS} timeline images): median ${median(writeTimes).toFixed(0)} ms of ${ROUNDS} ` +
    `[${writeTimes.map((t) => t.toFixed(0)).join(', ')}]; ${(median(writeTimes) / audioMinutes).toFixed(0)} ms per minute of audio`,
)

const figures: Record<string, number> = {
  'report.html (KiB)': bytes / 1024,
  'write, median (ms)': median(writeTimes),
}
const unavailable = chromiumUnavailable()
if (unavailable !== null) console.log(`render: skipped, ${unavailable}`)
else {
  await using server = await serveFolder(target)
  await using browser = await launchChromium()
  const renderTimes: number[] = []
  // The renderer's own accounting of its main thread up to the load event (CDP Performance metrics): on a shared
  // machine the wall time above swings with the load; this moves far less.
  const busy: Record<string, number[]> = {
    TaskDuration: [],
    ScriptDuration: [],
    LayoutDuration: [],
    RecalcStyleDuration: [],
  }
  for (let round = 0; round < ROUNDS; round++) {
    const page = await browser.context.newPage()
    const cdp = await browser.context.newCDPSession(page)
    await cdp.send('Performance.enable')
    const metricsAt = async () =>
      Object.fromEntries(
        (await cdp.send('Performance.getMetrics')).metrics.map((metric) => [metric.name, metric.value]),
      ) as Record<string, number>
    const start = await metricsAt()
    await page.goto(`${server.origin}/report.html`, { waitUntil: 'load' })
    const loaded = await metricsAt()
    for (const name of Object.keys(busy)) {
      busy[name]?.push(((loaded[name] ?? 0) - (start[name] ?? 0)) * 1000)
    }
    await page.waitForFunction(
      `document.getElementById('filter-count').textContent === '${SCENARIOS} of ${SCENARIOS} shown'`,
    )
    // Navigation start to the load event, as the page measured it itself (audio metadata included).
    renderTimes.push(
      Number(await page.evaluate(`performance.getEntriesByType('navigation')[0].loadEventEnd`)),
    )
    await page.close()
  }
  console.log(
    `render in chromium (navigation to load event; ${SCENARIOS * 3} audio players, preload none): median ${median(renderTimes).toFixed(0)} ms of ${ROUNDS} ` +
      `[${renderTimes.map((t) => t.toFixed(0)).join(', ')}]`,
  )
  figures['render in chromium, median (ms)'] = median(renderTimes)
  const busyText = Object.entries(busy)
    .map(([name, values]) => `${name} ${median(values).toFixed(0)} ms`)
    .join(', ')
  console.log(`renderer main thread to the load event (CDP metrics, median): ${busyText}`)
  for (const [name, values] of Object.entries(busy)) figures[`render ${name} (ms)`] = median(values)
}
printFigures(figures)
await rm(target, { recursive: true, force: true })
