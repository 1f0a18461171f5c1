// Vitest global setup of a live-evals phase project. It runs once, in the main process, before any worker starts:
// it resolves the settings, refuses a live run without a key, validates the whole dataset, reserves the run
// directories (once per run, never per worker) and provides the plan to workers and reporters. In watch mode a
// rerun is a new run, so it gets new directories.
import type { TestProject } from 'vitest/node'
import { projectOptionsOf } from './provided.ts'
import { planRun } from './run-plan.ts'
import { loadSuiteSettings } from './settings.ts'

export default async function liveEvalsGlobalSetup(project: TestProject): Promise<void> {
  const options = projectOptionsOf(project.getProvidedContext(), project.name)
  const plan = async () => {
    const settings = loadSuiteSettings(options.phase, options.configFile)
    project.provide('liveEvalsRun', await planRun(settings, { projectRoot: project.config.root }))
  }
  await plan()
  project.onTestsRerun(plan)
}
