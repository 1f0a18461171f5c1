// The version of this installation of live-evals: what `live-evals --version` prints and what a cassette header
// records, read from the package.json beside the code.
import { readFileSync } from 'node:fs'

/** The version in the package.json of this installation (the checkout's, or the installed package's). */
export function liveEvalsVersion(): string {
  // src/<folder>/<file>.ts in a checkout, dist/src/<folder>/<file>.js installed: package.json is two or three
  // folders up.
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as {
        name?: string
        version?: string
      }
      if (manifest.name === 'live-evals' && typeof manifest.version === 'string') return manifest.version
    } catch {}
  }
  return 'unknown'
}
