// Debian's chromium driven by playwright-core, for the browser test and the report bench: headless, no network
// services of its own, audio allowed to play without a gesture, a fresh profile that is removed afterwards.

import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'

export const CHROMIUM_PATH = '/usr/bin/chromium'

/** Why the browser cannot run here, or null when it can. */
export function chromiumUnavailable(): string | null {
  return existsSync(CHROMIUM_PATH)
    ? null
    : `${CHROMIUM_PATH} is not installed (apt-get install -y chromium); the browser test needs Debian's chromium`
}

export interface Chromium extends AsyncDisposable {
  context: BrowserContext
}

export async function launchChromium(): Promise<Chromium> {
  const profile = await mkdtemp(join(tmpdir(), 'live-evals-chromium-'))
  // playwright takes the profile as its own argument (it refuses --user-data-dir in args) and adds --headless.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
    ],
    viewport: { width: 1280, height: 900 },
  })
  return {
    context,
    [Symbol.asyncDispose]: async () => {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}
