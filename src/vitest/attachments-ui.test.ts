// The timeline image in the real `vitest --ui`: a child Vitest runs the fixture project with the UI, Debian's
// chromium opens the UI's report of a scenario test, and the timeline attachment there is a drawn image (the
// browser decoded it: natural width 1000), not a broken one. By path it was broken: the UI asks its server for
// `contentType=image/svg+xml` unencoded and gets `image/svg xml` back. Skipped where chromium is not installed.
import { afterEach, describe, expect, test } from 'vitest'
import { chromiumUnavailable, launchChromium } from '../report/chromium.test-helpers.ts'
import { unusedLoopbackPort } from '../testing/unused-port.test-helpers.ts'
import {
  FIXTURE_CONFIG,
  type RunningVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
  startVitest,
} from './child-vitest.test-helpers.ts'

const unavailable = chromiumUnavailable()
const running: RunningVitest[] = []

afterEach(async () => {
  await Promise.all(running.splice(0).map((child) => child.stop()))
})

describe.skipIf(unavailable !== null)(
  `vitest --ui in chromium${unavailable === null ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    test(
      "shows a scenario's timeline attachment as a decoded image",
      async () => {
        const space = await scratch()
        const port = await unusedLoopbackPort()
        const child = startVitest(
          ['--ui', '--watch', '--config', FIXTURE_CONFIG, '--api.host=127.0.0.1', `--api.port=${port}`],
          { ...space.env, OPENAI_ASSISTANT_MODE: 'responses', DISPLAY: '', WAYLAND_DISPLAY: '', BROWSER: '' },
        )
        running.push(child)
        const output = await child.waitFor((printed) => /\d+ passed, \d+ failed/.test(printed))
        const token = /\/__vitest__\/\?token=([\w-]+)/.exec(output)?.[1]
        expect(token, output).toBeDefined()

        await using browser = await launchChromium()
        const page = await browser.context.newPage()
        await page.goto(`http://127.0.0.1:${port}/__vitest__/?token=${token}`)
        // Open the passing scenario's report from the explorer (clicked again until the UI has loaded and shows it).
        const item = page.locator('[data-testid="explorer-item"][aria-label="Question about opening hours"]')
        const opened = async () => {
          await item.click({ timeout: 2_000 }).catch(() => undefined)
          return (await page.locator('[data-testid="file-detail"]').textContent({ timeout: 2_000 })) ?? ''
        }
        await expect.poll(opened, { timeout: 40_000, interval: 1_000 }).toContain('fixture_hours')
        // The timeline annotation's image, as the UI's report draws an image attachment: an <img> in a link.
        const image = page.locator('[data-testid="report"] a img')
        await expect.poll(() => image.count(), { timeout: 20_000 }).toBe(1)
        const decodedWidth = () =>
          image.evaluate((element) => {
            const drawn = element as unknown as { complete: boolean; naturalWidth: number }
            return drawn.complete ? drawn.naturalWidth : null
          })
        await expect.poll(decodedWidth, { timeout: 20_000 }).not.toBeNull()
        expect(await decodedWidth()).toBe(1000)
        const source = (await image.getAttribute('src')) ?? ''
        expect(source).toMatch(/^data:image\/svg\+xml;base64,/)
        const svg = Buffer.from(source.replace(/^data:[^,]*,/, ''), 'base64').toString('utf8')
        expect(svg).toContain('<title>caller voiced')
      },
      SPAWN_TIMEOUT_MS * 2,
    )
  },
)
