// Root options a project config cannot set, set from the plugin's configureVitest for a live-evals project:
// the canonical reporter, the attachments folder (with the results), Vite's file-serving allow list (so the UI
// can serve attachments kept outside the project), `open` without a desktop, and watch triggers for the
// dataset and the TOML file (they are read, not imported, so Vite's module graph never sees them).
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Reporter, TestProject, Vitest } from 'vitest/node'
import { hasDesktop } from './display.ts'

// Marks the instance this adds, whichever copy of the reporter module made it (each Vite-bundled config has its own).
const ADDED_BY_LIVE_EVALS = Symbol.for('live-evals.canonical-reporter')

/**
 * The canonical reporter, once per Vitest, as an instance imported by Node. Given as a path, Vitest would load
 * it with the root's module runner, which runs a checkout's sources (the reporter and the 400 modules behind it)
 * through Vite, compiled afresh on every start; an installed package's are Node's either way.
 */
export async function addCanonicalReporter(vitest: Vitest, canonicalReporter: string): Promise<void> {
  const { default: CanonicalReporter } = (await import(pathToFileURL(canonicalReporter).href)) as {
    default: new () => Reporter
  }
  const reporters = vitest.config.reporters
  const present = reporters.some((entry) => {
    if (typeof entry === 'object' && ADDED_BY_LIVE_EVALS in entry) return true
    const name = Array.isArray(entry) ? entry[0] : entry
    return typeof name === 'string' && resolve(name) === canonicalReporter
  })
  if (!present) reporters.push(Object.assign(new CanonicalReporter(), { [ADDED_BY_LIVE_EVALS]: true }))
}

/** Vitest's own default, relative to the root: a root left at it has not been chosen by anybody. */
export const VITEST_DEFAULT_ATTACHMENTS_DIR = '.vitest/attachments'

/** Attachments go with the run output; the UI may serve them even when that is outside the project. */
export function keepAttachmentsWithResults(
  vitest: Vitest,
  project: TestProject,
  attachmentsDir: string,
): void {
  // Vitest copies a test's attachments into its project's folder; the html reporter reads the root's.
  project.config.attachmentsDir = attachmentsDir
  if (vitest.config.attachmentsDir === resolve(vitest.config.root, VITEST_DEFAULT_ATTACHMENTS_DIR)) {
    vitest.config.attachmentsDir = attachmentsDir
  }
  for (const config of new Set([vitest.vite?.config, vitest.viteConfig])) {
    const allow = config?.server.fs.allow
    if (allow !== undefined && !allow.includes(attachmentsDir)) allow.push(attachmentsDir)
  }
}

/**
 * Records `open: false` where there is no desktop. Vitest's UI server has listened (and opened its browser)
 * before this hook runs, so what keeps xdg-open from running is BROWSER=none, set while the config loads
 * (display.ts); this makes the resolved config say so too.
 */
export function openOnlyWithDesktop(vitest: Vitest): void {
  if (!hasDesktop()) vitest.config.open = false
}

// Marks the triggers this adds, by project and file, whichever copy of this module added them: the plugin's
// (from the config) at start, the global setup's at each rerun that read the settings again.
const TRIGGER_OF = Symbol.for('live-evals.watch-trigger')

/**
 * In watch mode, a change to the dataset or the TOML file reruns this project's spec files (those that exist
 * when the trigger is added). Files outside the project are added to the watcher. Asked again with the files a
 * rerun resolved (a TOML file that now names another dataset), it adds only the ones not watched yet.
 */
export async function rerunOnInputChange(
  vitest: Vitest,
  project: TestProject,
  inputs: readonly string[],
): Promise<void> {
  if (!vitest.config.watch || inputs.length === 0) return
  vitest.config.watchTriggerPatterns ??= []
  const triggers = vitest.config.watchTriggerPatterns
  const keyOf = (file: string) => `${project.name}\0${file}`
  const watched = new Set(triggers.map((trigger) => (trigger as { [TRIGGER_OF]?: string })[TRIGGER_OF]))
  const files = [...new Set(inputs.map((input) => resolve(input)))].filter(
    (file) => !watched.has(keyOf(file)),
  )
  if (files.length === 0) return
  vitest.vite?.watcher.add(files)
  const { testFiles } = await project.globTestFiles()
  for (const file of files) {
    const trigger = { pattern: new RegExp(`^${escapeRegExp(file)}$`), testsToRun: () => testFiles }
    triggers.push(Object.assign(trigger, { [TRIGGER_OF]: keyOf(file) }))
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

export function attachmentsDirectoryIn(resultsDir: string): string {
  return join(resultsDir, '.attachments')
}

/** A frame inside the installed live-evals package (not the checkout, whose sources are the developer's own). */
const PACKAGE_FRAME = /[\\/]node_modules[\\/]live-evals[\\/]/

type StackFilter = NonNullable<TestProject['config']['onStackTrace']>

/** Drops the installed package's frames, then asks the user's own filter, if any. */
export function withoutPackageFrames(own: StackFilter | undefined): StackFilter {
  return (error, frame) => (PACKAGE_FRAME.test(frame.file) ? false : own?.(error, frame))
}

/**
 * A failing scenario's error shows the user's frames only: where inside live-evals it was raised says nothing a
 * user can act on (the message names what failed and what to change).
 */
export function hidePackageFrames(project: TestProject): void {
  project.config.onStackTrace = withoutPackageFrames(project.config.onStackTrace)
}
