// Whether this machine can open a browser window. Vite opens `vitest --ui` with xdg-open on Linux, which
// fails with a stack trace on a server or container without a desktop; macOS and Windows always have one.
import type { Environment } from '../../config/index.ts'

export function hasDesktop(
  env: Environment = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (platform === 'darwin' || platform === 'win32') return true
  return Boolean(env.DISPLAY?.trim() || env.WAYLAND_DISPLAY?.trim())
}

/**
 * Keeps Vite from trying to open a browser where there is no desktop. Vite's documented switch is
 * BROWSER=none; it must be set while the config loads, because Vitest's UI server starts listening (and
 * opens the browser) before any plugin hook runs. A BROWSER somebody chose is left alone.
 */
export function disableBrowserOpeningWithoutDesktop(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (hasDesktop(env, platform) || (env.BROWSER ?? '') !== '') return false
  env.BROWSER = 'none'
  return true
}
