// The model matrix end to end, offline: a child Vitest with LIVE_EVALS_MODELS=gpt-live-1,gpt-live-1.1 runs the same
// scenarios on each model and architecture (one describe per model, one run folder and results.json per model and
// architecture, rows naming their model); `live-evals report` on the four folders writes the model comparison, which
// chromium opens (cards, deltas with intervals, the changed verdict, cost, links into each run's report, CSP
// clean); and `live-evals gate --compare-models --max-pass-rate-drop 0.05` fails on gpt-live-1.1's drop. The
// fixture's spec fails hours_flaky on gpt-live-1.1 on purpose: offline, both models behave alike.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { captureIO } from '../cli/capture-io.ts'
import { run as gate } from '../cli/gate.ts'
import { run as report } from '../cli/report.ts'
import type { ResultsDocument } from '../reporting/result-schema.ts'
import {
  type ChildRun,
  resultsDocumentsIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../vitest/child-vitest.test-helpers.ts'
import { chromiumUnavailable, launchChromium } from './chromium.test-helpers.ts'
import { serveFolder } from './static-server.test-helpers.ts'

const CONFIG = 'src/vitest/plugin/models-fixture/vitest.config.ts'
const FOLDERS = [
  'matrix_gpt-live-1.1_client',
  'matrix_gpt-live-1.1_responses',
  'matrix_gpt-live-1_client',
  'matrix_gpt-live-1_responses',
]

interface ModelsRun {
  run: ChildRun
  resultsDir: string
  folders: string[]
  documents: Map<string, ResultsDocument>
  tests: { ancestorTitles: string[]; title: string; status: string }[]
}

async function runModels(): Promise<ModelsRun> {
  const { dir, env } = await scratch()
  const vitestReport = join(dir, 'vitest.json')
  const run = await runVitest(
    ['run', '--config', CONFIG, '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
    { ...env, LIVE_EVALS_MODELS: 'gpt-live-1,gpt-live-1.1', LIVE_EVALS_RUN_NAME: 'matrix' },
  )
  const resultsDir = join(dir, 'results')
  const documents = await resultsDocumentsIn(resultsDir)
  const folders = [...documents.keys()]
  const json = JSON.parse(await readFile(vitestReport, 'utf8')) as {
    testResults: { assertionResults: ModelsRun['tests'] }[]
  }
  return {
    run,
    resultsDir,
    folders,
    documents,
    tests: json.testResults.flatMap((file) => file.assertionResults),
  }
}

const modelOfFolder = (folder: string) => (folder.includes('gpt-live-1.1') ? 'gpt-live-1.1' : 'gpt-live-1')
const unavailable = chromiumUnavailable()

describe('LIVE_EVALS_MODELS=gpt-live-1,gpt-live-1.1 on two scenarios, both architectures', () => {
  let models: ModelsRun

  beforeAll(async () => {
    models = await runModels()
  }, SPAWN_TIMEOUT_MS)

  test('one run folder and results.json per model and architecture', () => {
    expect(models.folders, models.run.output).toEqual(FOLDERS)
    expect(models.run.output).toContain('6 passed, 2 failed')
  })

  test("each results.json holds the same scenarios on its model: run.configuration and every row's provenance", () => {
    for (const [folder, document] of models.documents) {
      const model = modelOfFolder(folder)
      const architecture = folder.endsWith('client') ? 'client' : 'responses'
      expect(document.run.configuration).toMatchObject({ model, assistant_mode: architecture })
      expect(document.results.map((row) => row.scenario_id).sort()).toEqual(['hours_flaky', 'hours_steady'])
      for (const row of document.results) {
        const provenance = (row.observability as { provenance?: { model?: string } }).provenance
        expect(provenance?.model).toBe(model)
      }
      expect(document.summary).toMatchObject({ total: 2, infrastructure_errors: 0 })
      expect(document.summary.passed).toBe(model === 'gpt-live-1' ? 2 : 1)
    }
  })

  test('one describe per model around its architectures, the scenario and test names unchanged below', () => {
    const paths = models.tests.map((test) => [...test.ancestorTitles, test.title].join(' > ')).sort()
    expect(paths).toHaveLength(8)
    for (const model of ['gpt-live-1', 'gpt-live-1.1']) {
      for (const architecture of ['responses', 'client']) {
        expect(paths).toContain(
          `${model} > ${architecture} > hours_steady > Opening hours, answered every time`,
        )
      }
    }
  })

  test('the gate fails on the per-model pass rate drop, and passes a limit the drop is within', async () => {
    const files = models.folders.map((folder) => join(models.resultsDir, folder, 'results.json'))
    const io = captureIO()
    // The folders sort gpt-live-1.1 first; the default model is the reference all the same.
    const compare = ['--compare-models']
    const code = await gate([...files, ...compare, '--max-pass-rate-drop', '0.05'], io)
    expect(code, io.stderr()).toBe(1)
    expect(io.stdout()).toContain(
      'fail         max_pass_rate_drop:gpt-live-1.1: gpt-live-1.1 vs gpt-live-1: pass rate 50.0%',
    )
    expect(io.stdout()).toContain('crawl/client hours_flaky passed→failed')
    const wide = captureIO()
    expect(await gate([...files, ...compare, '--max-pass-rate-drop', '0.5'], wide)).toBe(0)
  })

  test.skipIf(unavailable !== null)(
    `the comparison page in chromium${unavailable === null ? '' : ` (skipped: ${unavailable})`}`,
    { timeout: 90_000 },
    async ({ annotate }) => {
      // In folder order (gpt-live-1.1 first): the default model is still the reference, shown first.
      const dirs = models.folders.map((folder) => join(models.resultsDir, folder))
      const io = captureIO()
      expect(await report(dirs, io), io.stderr()).toBe(0)
      expect(io.stdout()).toContain(join(models.resultsDir, 'comparison.html'))

      await using server = await serveFolder(models.resultsDir)
      await using browser = await launchChromium()
      const page = await browser.context.newPage()
      const problems: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text())
      })
      page.on('pageerror', (error) => problems.push(error.message))
      await page.goto(`${server.origin}/comparison.html`)

      expect(await page.locator('h1').textContent()).toBe('gpt-live-1.1 vs gpt-live-1')
      const cards = page.locator('#model-cards .card')
      expect(await cards.count()).toBe(2)
      expect(await cards.nth(0).textContent()).toContain('gpt-live-1 (reference)')
      expect(await cards.nth(0).textContent()).toContain('passed 4/4')
      expect(await cards.nth(1).textContent()).toContain('passed 2/4')
      expect(await cards.nth(1).textContent()).toContain('standby n/a (WebSocket)')
      expect(await cards.nth(1).textContent()).toMatch(/voice \d+\.\d\d min active/)

      const rate = page.locator('table.model-deltas tr[data-metric="pass_rate"] td')
      expect(await rate.allTextContents()).toEqual([
        'pass rate',
        '100.0%',
        '50.0%',
        '-0.500',
        expect.stringMatching(/^\[-0\.\d{3}, \+0\.\d{3}\]$/),
        '4/4',
        'no clear difference',
      ])
      expect(
        await page.locator('table.model-deltas tr[data-metric="response_latency_p95_ms"] td').count(),
      ).toBe(7)
      expect(
        (await page.locator('table.verdict-changes tbody tr td:first-child').allTextContents()).sort(),
      ).toEqual(['crawl/client hours_flaky', 'crawl/responses hours_flaky'])

      const scenarioRows = page.locator('#model-scenarios tbody tr')
      expect(await scenarioRows.count()).toBe(4)
      // A status links to the scenario's section in that model's run report, which opens.
      const link = page.locator('#model-scenarios tr[data-scenario="hours_flaky"] td:nth-child(5) a').first()
      const href = await link.getAttribute('href')
      expect(href).toMatch(/^matrix_gpt-live-1\.1_(client|responses)\/report\.html#scenario-hours_flaky-t1$/)
      await link.click()
      await page.waitForURL(/#scenario-hours_flaky-t1$/, { timeout: 15_000 })
      await page.waitForLoadState('load', { timeout: 15_000 })
      await expect.poll(() => page.locator('#scenario-hours_flaky-t1').count(), { timeout: 15_000 }).toBe(1)

      expect(problems.filter((text) => /Content Security Policy|Refused/.test(text))).toEqual([])
      expect(problems).toEqual([])
      await page.goto(`${server.origin}/comparison.html`)
      const screenshot = join(models.resultsDir, 'comparison-screenshot.png')
      await page.screenshot({ path: screenshot, fullPage: true })
      await annotate('model comparison screenshot', 'screenshot', {
        contentType: 'image/png',
        path: screenshot,
      })
    },
  )
})
