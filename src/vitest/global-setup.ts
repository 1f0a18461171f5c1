// Vitest global setup of a live-evals phase project. It runs once, in the main process, before any worker starts:
// it resolves the settings, refuses a live run without a key, validates the whole dataset, reserves the run
// directories (once per run, never per worker), creates Vitest's attachments folder private, and provides the
// plan to workers and reporters. A run that cannot start prints its problems as plain text and exits 1.
// Run directories are reserved up front, because every worker needs the same path before it writes; the ones
// still empty when the run is over (`vitest list`, a filter that selected nothing of a run) are removed by the
// teardown, which Vitest calls after the reporters finished. In watch mode a rerun is a new run, so it gets new
// directories, and the previous run's empty ones go first.
import type { TestProject } from 'vitest/node'
import { makePrivateDirectories } from '../artifacts/index.ts'
import { projectOptionsOf } from './provided.ts'
import { planRun, type RunPlan, releaseEmptyRunDirectories } from './run-plan.ts'
import { loadSuiteSettings } from './settings.ts'
import { exitWithStartupFailure } from './startup-failure.ts'

export default async function liveEvalsGlobalSetup(project: TestProject): Promise<() => Promise<void>> {
  const options = projectOptionsOf(project.getProvidedContext(), project.name)
  let current: RunPlan | null = null
  const plan = async () => {
    const settings = loadSuiteSettings(options.phase, options.configFile)
    current = await planRun(settings, { projectRoot: project.config.root })
    project.provide('liveEvalsRun', current)
  }
  try {
    await plan()
  } catch (error) {
    exitWithStartupFailure(options.phase, error)
  }
  // Vitest copies attached audio here; it would create the folder with default permissions.
  await makePrivateDirectories(project.config.attachmentsDir)
  const releaseUnused = async () => {
    if (current !== null) await releaseEmptyRunDirectories(current.runs)
  }
  project.onTestsRerun(async () => {
    await releaseUnused()
    await plan()
  })
  return releaseUnused
}
