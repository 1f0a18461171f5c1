// The report stays quick to open with many scenarios (issue 24, goal 4): chromium skips styling and laying out
// the scenario sections that are off screen until they come into view, and they are all there once they do.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chromiumUnavailable, launchChromium } from './chromium.test-helpers.ts'
import { writeSampleRun } from './report.test-helpers.ts'
import { serveFolder } from './static-server.test-helpers.ts'
import { writeRunReport } from './write-report.ts'

const unavailable = chromiumUnavailable()

let runDir = ''
beforeAll(async () => {
  runDir = await mkdtemp(join(tmpdir(), 'live-evals-report-render-'))
  await writeSampleRun(runDir)
  await writeRunReport(runDir)
})
afterAll(async () => {
  await rm(runDir, { recursive: true, force: true })
})

describe.skipIf(unavailable !== null)(
  `rendering the HTML report in chromium${unavailable === null ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    test('a scenario section off screen is not rendered until it comes into view', {
      timeout: 60_000,
    }, async () => {
      await using server = await serveFolder(runDir)
      await using browser = await launchChromium()
      const page = await browser.context.newPage()
      await page.setViewportSize({ width: 1280, height: 400 })
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(error.message))
      await page.goto(`${server.origin}/report.html`, { waitUntil: 'load' })
      // checkVisibility with contentVisibilityAuto is false exactly for content the renderer skipped.
      // (the section itself is laid out as a placeholder; what it holds is skipped).
      const rendered = (selector: string) =>
        page.evaluate(
          `document.querySelector(${JSON.stringify(selector)}).checkVisibility({ contentVisibilityAuto: true })`,
        )
      const last = 'scenario-booking_broken-t1'
      expect(await rendered(`#${last} h2`)).toBe(false)
      expect(await rendered('#scenario-table td')).toBe(true)
      await page.locator(`#${last}`).scrollIntoViewIfNeeded()
      await expect.poll(() => rendered(`#${last} h2`)).toBe(true)
      // Its players row is there and laid out once shown.
      const box = await page.locator(`#${last} .players`).boundingBox()
      expect(box?.height ?? 0).toBeGreaterThan(0)
      expect(problems).toEqual([])
    })
  },
)
