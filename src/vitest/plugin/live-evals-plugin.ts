// The Vite plugin of a live-evals phase project. Its configureVitest runs once per Vitest start, in the main
// process, before any test file is collected: it resolves the phase's settings (the only place they are
// resolved for a run; the global setup plans with them), sets the project options that follow from them, and
// the root options a project config cannot set. A setting that does not resolve is kept for the global setup
// to report, so it never breaks a run of other projects.
import type { TestProject, Vitest } from 'vitest/node'
import type { PhaseSettings } from '../../config/index.ts'
import { modelConcurrency, modelsToEvaluate } from '../../config/live-models.ts'
import type { PhaseDescription } from '../../phases/engine/phase-module.ts'
import type { LiveEvalsProjectOptions } from '../provided.ts'
import { sizeRealTimeHeap } from './real-time-heap.ts'
import {
  addCanonicalReporter,
  attachmentsDirectoryIn,
  hidePackageFrames,
  keepAttachmentsWithResults,
  openOnlyWithDesktop,
  rerunOnInputChange,
} from './root-options.ts'
import { runClockOf } from './run-line.ts'
import { splitShardsByScenario } from './shard-sequencer.ts'

export interface LiveEvalsPluginInput {
  options: Omit<LiveEvalsProjectOptions, 'startup' | 'resultsDir'>
  canonicalReporter: string
}

// vitest.config.ts imports this module whatever project runs (`vitest --project unit` too), and Vite bundles the
// config with everything it imports, dynamic imports included. The settings loader and the phases' descriptions
// are imported only when a phase project is configured, through a specifier the bundler cannot follow, so a config
// load costs neither. The phases themselves (with the openai SDK) are never loaded in the main process
// (main-process-imports.test.ts).
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
const importBeside = <Module>(module: string): Promise<Module> =>
  import(new URL(`${module}${EXTENSION}`, import.meta.url).href)
const loadStartup = () => importBeside<typeof import('./startup.ts')>('./startup')
const loadSettings = () => importBeside<typeof import('../settings.ts')>('../settings')
const loadPhaseDescription = async (phase: PhaseSettings['phase']): Promise<PhaseDescription> =>
  (
    await importBeside<typeof import('../../phases/descriptions.ts')>('../../phases/descriptions')
  ).phaseDescription(phase)

export function liveEvalsPlugin(input: LiveEvalsPluginInput) {
  return {
    name: 'live-evals',
    async configureVitest({ vitest, project }: { vitest: Vitest; project: TestProject }): Promise<void> {
      const { phase, configFile } = input.options
      const [{ resolveStartup }, { resultsDirectory }] = await Promise.all([loadStartup(), loadSettings()])
      const startup = resolveStartup(phase, configFile)
      const resultsDir = startup.ok ? resultsDirectory(startup.settings, project.config.root) : null
      project.provide('liveEvalsProject', { ...input.options, startup, resultsDir })
      await addCanonicalReporter(vitest, input.canonicalReporter)
      openOnlyWithDesktop(vitest)
      hidePackageFrames(project)
      splitShardsByScenario(vitest, (spec) => spec.project === project)
      if (!startup.ok || resultsDir === null) return
      applyExecutionSettings(project, startup.settings, await loadPhaseDescription(startup.settings.phase))
      keepAttachmentsWithResults(vitest, project, attachmentsDirectoryIn(resultsDir))
      await rerunOnInputChange(vitest, project, [startup.settings.dataset.path, startup.settings.config_file])
    },
  }
}

/**
 * Concurrency and the per-scenario timeout, from the settings. A file runs every model's limit at once (each
 * model's own limiter, src/vitest/model-limiters.ts, keeps it to its share); one model runs its limit.
 */
function applyExecutionSettings(
  project: TestProject,
  settings: PhaseSettings,
  description: PhaseDescription,
): void {
  const concurrency = modelsToEvaluate(settings).reduce(
    (sum, model) => sum + modelConcurrency(settings, model),
    0,
  )
  project.config.maxConcurrency = concurrency
  project.config.sequence.concurrent = concurrency > 1
  project.config.testTimeout = description.testTimeoutMs(settings)
  sizeRealTimeHeap(project.config, runClockOf(settings))
}
