// The Vitest project of one live-evals phase, for vitest.config.ts:
//   projects: [liveEvalsProject({ phase: 'crawl', config: 'specs/crawl/config.toml' })]
// It wires the custom runner, the matchers, the global setup (run plan), the canonical reporter and the plugin
// that resolves the phase's settings once and sets what follows from them (concurrency, timeouts, attachments,
// sharding, watch triggers). It declares every tag a scenario can carry up front, so strictTags never rejects
// a file and the config needs no dataset.
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProjectInlineConfiguration } from 'vitest/config'
import { PHASES, type Phase } from '../config/schema.ts'
import { disableBrowserOpeningWithoutDesktop } from './plugin/display.ts'
import { liveEvalsPlugin } from './plugin/live-evals-plugin.ts'
import { refuseUnsupportedNode } from './plugin/node-support.ts'
import { escapeRegExp } from './plugin/root-options.ts'
import { declaredTags } from './tags.ts'

// The checkout runs the .ts sources; the installed package runs the compiled .js beside them.
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
const here = (module: string) => fileURLToPath(new URL(`${module}${EXTENSION}`, import.meta.url))

export const CANONICAL_REPORTER = resolve(here('../../reporters/canonical'))

/**
 * live-evals' own modules (the runner, the setup, the engine a spec file imports), not its spec or test files:
 * imported by Node in the test workers, as an installed package's are (Vitest externalizes node_modules). Only
 * a checkout's sources would otherwise go through Vite's module runner, which compiles every module afresh in
 * every worker of every run (no compile cache); Node strips their types and keeps its compile cache. Without
 * it a two-scenario run of the checkout cost about twice the CPU (bench/child-run-cpu.ts).
 */
export const PACKAGE_MODULES = new RegExp(
  `^${escapeRegExp(fileURLToPath(new URL('../../', import.meta.url)))}(?:src|reporters)/(?!.*\\.(?:spec|test)\\.[cm]?[jt]s$)`,
)

export interface LiveEvalsProjectInput {
  phase: Phase
  /**
   * The phase's config.toml, relative to the working directory Vitest starts in (or absolute). Optional: without
   * it the phase runs on the built-in defaults and the environment (LIVE_EVALS_CONFIG may still name a file).
   */
  config?: string
  /**
   * Spec files, as Vitest include globs relative to the folder Vitest runs from; defaults to
   * `specs/<phase>/**\/*.spec.ts`.
   */
  include?: string[]
  /** Project name; defaults to the phase. */
  name?: string
}

export function liveEvalsProject(input: LiveEvalsProjectInput): TestProjectInlineConfiguration {
  checkPhase(input.phase)
  // When vitest.config.ts is loaded, before any file is collected: an unsupported Node gets one line, not a run.
  refuseUnsupportedNode()
  const configFile = input.config === undefined ? null : resolve(input.config)
  const tags = declaredTags(input.phase)
  // Vitest's UI server opens the browser before any plugin hook runs; only the config load is early enough.
  disableBrowserOpeningWithoutDesktop()
  return {
    plugins: [
      liveEvalsPlugin({
        options: { phase: input.phase, configFile, declaredTags: tags.map((tag) => tag.name) },
        canonicalReporter: CANONICAL_REPORTER,
      }),
    ],
    test: {
      name: input.name ?? input.phase,
      include: input.include ?? [`specs/${input.phase}/**/*.spec.ts`],
      environment: 'node',
      runner: here('./runner'),
      setupFiles: [here('./setup')],
      globalSetup: [here('./global-setup')],
      tags,
      hookTimeout: 60_000,
      server: { deps: { external: [PACKAGE_MODULES] } },
    },
  }
}

/**
 * A phase the types would have refused but plain JavaScript or a cast let through: refused when vitest.config.ts
 * loads, naming the valid phases, instead of a run that finds no test files and reports "0 passed, 0 failed".
 */
function checkPhase(phase: unknown): asserts phase is Phase {
  if ((PHASES as readonly unknown[]).includes(phase)) return
  throw new Error(
    `liveEvalsProject({ phase: ${JSON.stringify(phase) ?? String(phase)} }): unknown phase; ` +
      `use one of ${PHASES.map((name) => `'${name}'`).join(', ')}`,
  )
}
