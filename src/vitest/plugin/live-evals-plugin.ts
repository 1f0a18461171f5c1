// The Vite plugin of a live-evals phase project. Its configureVitest runs once per Vitest start, in the main
// process, before any test file is collected: it resolves the phase's settings (the only place they are
// resolved for a run; the global setup plans with them), sets the project options that follow from them, and
// the root options a project config cannot set. A setting that does not resolve is kept for the global setup
// to report, so it never breaks a run of other projects.
import type { TestProject, Vitest } from 'vitest/node'
import type { LiveEvalsProjectOptions } from '../provided.ts'
import {
  addCanonicalReporter,
  attachmentsDirectoryIn,
  hidePackageFrames,
  keepAttachmentsWithResults,
  openOnlyWithDesktop,
  rerunOnInputChange,
} from './root-options.ts'
import { splitShardsByScenario } from './shard-sequencer.ts'

export interface LiveEvalsPluginInput {
  options: Omit<LiveEvalsProjectOptions, 'startup' | 'resultsDir'>
  canonicalReporter: string
}

// vitest.config.ts imports this module whatever project runs (`vitest --project unit` too), and Vite bundles the
// config with everything it imports, dynamic imports included. The settings loader and the execution settings
// (with the phases' descriptions) are imported only when a phase project is configured, through a specifier the
// bundler cannot follow, so a config load costs neither. The phases themselves (with the openai SDK) are never
// loaded in the main process (main-process-imports.test.ts).
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
const importBeside = <Module>(module: string): Promise<Module> =>
  import(new URL(`${module}${EXTENSION}`, import.meta.url).href)
const loadStartup = () => importBeside<typeof import('./startup.ts')>('./startup')
const loadSettings = () => importBeside<typeof import('../settings.ts')>('../settings')
const loadExecutionSettings = () =>
  importBeside<typeof import('./execution-settings.ts')>('./execution-settings')

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
      const { applyExecutionSettings } = await loadExecutionSettings()
      applyExecutionSettings(project.config, startup.settings)
      keepAttachmentsWithResults(vitest, project, attachmentsDirectoryIn(resultsDir))
      await rerunOnInputChange(vitest, project, [startup.settings.dataset.path, startup.settings.config_file])
    },
  }
}
