// The report in a real browser: Debian's chromium opens a generated report over loopback HTTP, the table is
// checked, filtered and sorted, clicking the timeline seeks and plays the conversation audio, the hostile
// transcript stays text, the CSP reports no violation and nothing outside the run directory is requested.
// LIVE_EVALS_UPDATE_SCREENSHOT=1 also writes docs/report-screenshot.png for the README.
// A second test opens the report a real run wrote (a child Vitest on the tiny offline fixture project): what a
// team opens first must not call its finished run partial.

import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SPAWN_TIMEOUT_MS } from '../vitest/child-vitest.test-helpers.ts'
import { sharedChildRun } from '../vitest/shared-child-run.test-helpers.ts'
import { chromiumUnavailable, launchChromium } from './chromium.test-helpers.ts'
import { writeSampleRun } from './report.test-helpers.ts'
import { serveFolder } from './static-server.test-helpers.ts'
import { writeRunReport } from './write-report.ts'

const unavailable = chromiumUnavailable()
const DOCS_SCREENSHOT = resolve(import.meta.dirname, '..', '..', 'docs', 'report-screenshot.png')

let runDir = ''
beforeAll(async () => {
  runDir = await mkdtemp(join(tmpdir(), 'live-evals-report-browser-'))
  await writeSampleRun(runDir)
  await writeRunReport(runDir)
})
afterAll(async () => {
  await rm(runDir, { recursive: true, force: true })
})

describe.skipIf(unavailable !== null)(
  `the HTML report in chromium${unavailable === null ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    test('table, filter, sort, audio seek and play, escaping, CSP, screenshot', { timeout: 60_000 }, async ({
      annotate,
    }) => {
      await using server = await serveFolder(runDir)
      await using browser = await launchChromium()
      const page = await browser.context.newPage()
      const problems: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text())
      })
      page.on('pageerror', (error) => problems.push(error.message))
      const requests: string[] = []
      page.on('request', (request) => requests.push(request.url()))

      await page.goto(`${server.origin}/report.html`)
      const rows = page.locator('#scenario-table tbody tr')
      await expect.poll(() => rows.count()).toBe(3)
      expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual([
        'booking_ok',
        'booking_bad',
        'booking_broken',
      ])
      expect(await page.locator('#filter-count').textContent()).toBe('3 of 3 shown')

      await page.fill('#filter-text', 'fails')
      expect(
        await page.locator('#scenario-table tbody tr:visible td:nth-child(2)').allTextContents(),
      ).toEqual(['booking_bad'])
      await page.fill('#filter-text', '')
      await page.selectOption('#filter-status', 'infrastructure_error')
      expect(await page.locator('#filter-count').textContent()).toBe('1 of 3 shown')
      await page.selectOption('#filter-status', '')

      // Latency column, descending on the second click; the unmeasured row sorts last either way.
      const latencyHeader = page.locator('#scenario-table th', { hasText: 'latency' })
      await latencyHeader.click()
      await latencyHeader.click()
      expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual([
        'booking_bad',
        'booking_ok',
        'booking_broken',
      ])

      // Clicking the assistant's voiced interval seeks the stereo player to 1.6 s and plays it.
      const section = page.locator('#scenario-booking_ok-t1')
      await section.locator('svg rect[data-seek-ms="1600"]').first().click()
      const player = 'document.getElementById("scenario-booking_ok-t1-conversation")'
      // Played, not merely asked to: a played range starts at the seek point and reaches past it (this holds even
      // when what remains has already finished by the time the page is polled). Polled from here through
      // page.evaluate, because waitForFunction would evaluate a string inside the page, which the CSP refuses.
      const playedFrom = (seconds: number) =>
        page.evaluate(
          `(() => { const p = ${player}; if (p.readyState < 2) return false; for (let i = 0; i < p.played.length; i++) { if (Math.abs(p.played.start(i) - ${seconds}) < 0.05 && p.played.end(i) > ${seconds} + 0.05) return true } return false })()`,
        )
      await expect.poll(() => playedFrom(1.6), { timeout: 15_000, interval: 50 }).toBe(true)
      expect(await page.evaluate(`Math.round(${player}.duration * 1000)`)).toBe(3_000)
      // A transcript line seeks too.
      await section.locator('.lines li', { hasText: 'Book a table' }).click()
      await expect.poll(() => playedFrom(0.2), { timeout: 15_000, interval: 50 }).toBe(true)

      expect(await page.evaluate('window.__pwned === undefined')).toBe(true)
      expect(await page.locator('#scenario-booking_bad-t1 .lines').textContent()).toContain(
        '<script>window.__pwned',
      )
      expect(problems.filter((text) => /Content Security Policy|Refused/.test(text))).toEqual([])
      expect(problems, server.requested.join(' ')).toEqual([])
      expect(requests.every((url) => url.startsWith(`${server.origin}/`))).toBe(true)
      expect(server.requested).toContain('/audio/booking_ok/conversation.wav')

      await page.evaluate(`${player}.pause()`)
      await page.evaluate('window.scrollTo(0, 0)')
      const screenshot = join(runDir, 'report-screenshot.png')
      await page.screenshot({ path: screenshot, fullPage: false })
      await annotate('HTML report screenshot', 'screenshot', { contentType: 'image/png', path: screenshot })
      if (process.env.LIVE_EVALS_UPDATE_SCREENSHOT === '1') await page.screenshot({ path: DOCS_SCREENSHOT })
    })
  },
)

describe.skipIf(unavailable !== null)(
  `the HTML report of a real run in chromium${unavailable === null ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    test('a finished offline run: its report shows every row and no partial-results warning', {
      timeout: SPAWN_TIMEOUT_MS + 60_000,
    }, async () => {
      // The fixture project's run that src/vitest/integration.test.ts reads too, started once per test run.
      const run = await sharedChildRun('tinyRetried')
      expect(run.output).toContain('1 passed, 1 failed') // the wrong-tool scenario fails by design
      const results = join(run.dir, 'results')
      const [name] = (await readdir(results)).filter((entry) => !entry.startsWith('.'))
      await using server = await serveFolder(join(results, name ?? ''))
      await using browser = await launchChromium()
      const page = await browser.context.newPage()
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(error.message))
      await page.goto(`${server.origin}/report.html`)
      await expect.poll(() => page.locator('#scenario-table tbody tr').count()).toBe(2)
      expect(await page.locator('.problem').allTextContents()).toEqual([])
      expect(await page.locator('body').textContent()).not.toContain('Partial results')
      expect(problems).toEqual([])
    })
  },
)
