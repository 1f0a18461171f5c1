// Vitest global setup of a live-evals phase project. It runs once, in the main process, before any worker
// starts: it takes the settings the plugin resolved when Vitest started, refuses a live run without a key,
// validates the whole dataset, selects this shard's scenarios, claims the run folders (once per run, never per
// worker), creates Vitest's attachments folder private, and provides the plan to workers and reporters. A run
// that cannot start prints its problems as plain text and exits 1.
// Run folders are claimed up front, because every worker needs the same path before it writes; the ones still
// unused when the run is over (`vitest list`, a filter that selected nothing of a run) are released by the
// teardown, which Vitest calls after the reporters finished. In watch mode a rerun of the project's spec files is
// a new run (a rerun of other projects' files only leaves this project's run alone): the settings and the dataset
// are read again (a changed config.toml or dataset triggers the rerun), it gets new folders, the
// previous run's unused ones go first, a live rerun is checked against its endpoints as at start, and the
// project's concurrency, timeout and heap follow the settings it read. A rerun that cannot be planned (a file
// saved broken, or read half-saved) or whose live check fails must not end the watch: its problem is printed as
// at startup, the previous plan is withdrawn (its folders are the previous run's: nothing of this rerun may be
// written there) and each test file fails with the problem, so the rerun writes nothing and the next save plans
// afresh.
import type { TestProject, TestSpecification } from 'vitest/node'
import { assertPrivateDirectoryUsable, makePrivateDirectories } from '../artifacts/index.ts'
import { pruneAttachmentCopies } from './plugin/attachment-retention.ts'
import { applyExecutionSettings } from './plugin/execution-settings.ts'
import { rerunOnInputChange } from './plugin/root-options.ts'
import { releaseUnusedRunDirectories } from './plugin/run-directories.ts'
import { runStartLine } from './plugin/run-line.ts'
import { resolveStartup, type Startup } from './plugin/startup.ts'
import { projectOptionsOf } from './provided.ts'
import { planRun } from './run-plan.ts'
import type { RunPlan } from './run-plan-schema.ts'
import { exitWithStartupFailure, startupFailureText } from './startup-failure.ts'

export default async function liveEvalsGlobalSetup(project: TestProject): Promise<() => Promise<void>> {
  const options = projectOptionsOf(project.getProvidedContext(), project.name)
  let current: RunPlan | null = null
  // Released, a plan is no one's: the teardown or the next rerun has nothing more to release.
  const releaseUnused = async () => {
    const released = current
    current = null
    if (released !== null) await releaseUnusedRunDirectories(released.runs)
  }
  const plan = async (startup: Startup): Promise<RunPlan> => {
    if (!startup.ok) throw startup.error
    const shard = project.vitest.config.shard
    const planned = await planRun(startup.settings, {
      projectRoot: project.config.root,
      runName: startup.runName,
      rerunPlan: startup.rerunPlan,
      shard: shard === undefined ? null : { index: shard.index, count: shard.count },
    })
    current = planned
    project.provide('liveEvalsRun', { state: 'planned', plan: planned })
    project.vitest.logger.log(
      runStartLine(
        planned.settings,
        planned.runs.map((run) => run.architecture),
      ),
    )
    return planned
  }
  // Live only: one cheap request per endpoint the run needs, so a wrong key or a dead endpoint is one message.
  // Imported only for a live run: it holds the openai SDK, which an offline run's main process never needs.
  const checkLiveEndpoints = async (planned: RunPlan): Promise<void> => {
    if (planned.settings.execution.mode !== 'live') return
    const { assertLiveEndpointsAnswer } = await import('./preflight.ts')
    await assertLiveEndpointsAnswer(planned.settings)
  }
  const attachmentsDir = project.config.attachmentsDir
  let planned: RunPlan
  try {
    // Checked before anything is claimed, so a bad attachments folder leaves nothing behind.
    await assertPrivateDirectoryUsable(attachmentsDir, 'attachments folder')
    // The plugin's error comes from the config's copy of our modules, which `instanceof` in the startup
    // failure report does not recognise: resolve once more here, where the failure is reported.
    planned = await plan(
      options.startup.ok ? options.startup : resolveStartup(options.phase, options.configFile),
    )
  } catch (error) {
    exitWithStartupFailure(options.phase, error)
  }
  try {
    await checkLiveEndpoints(planned)
  } catch (error) {
    await releaseUnused()
    exitWithStartupFailure(options.phase, error)
  }
  try {
    // Vitest copies attached audio here; it would create the folder with default permissions.
    await makePrivateDirectories(attachmentsDir, 'attachments folder')
  } catch (error) {
    // The run folders were claimed already: release them, so a run that never started leaves none behind.
    await releaseUnused()
    exitWithStartupFailure(options.phase, error)
  }
  await pruneAttachmentCopies(attachmentsDir)
  const replan = async () => {
    // The previous run may still be under way: a rerun from the UI or the API (vitest.rerunFiles,
    // rerunTestSpecifications, rerunTask) calls this hook first and only then runFiles, which is what waits for
    // the running run, and nothing cancels that run (Vitest 5.1.2, dist/chunks/cli-api.*.js: rerunFiles and
    // rerunTestSpecifications call `_onUserTestsRerun` before `runFiles`, whose `await this.runningPromise` comes
    // later; the API's `rerun` calls rerunFiles directly). Only the watcher's scheduleRerun awaits the running run
    // first. Released now, its still-empty folders would go under it, and a plan provided now would be the one
    // its reporters write with. So the previous run ends first (its reporters included), then its plan goes.
    await project.vitest.waitForTestRunEnd()
    await releaseUnused()
    await pruneAttachmentCopies(attachmentsDir)
    const startup = resolveStartup(options.phase, options.configFile)
    // The TOML file may now name another dataset: its edits must rerun too (the plugin watched the first one),
    // also when this rerun cannot read it yet (named before it was written, or saved broken).
    if (startup.ok) {
      const { dataset, config_file } = startup.settings
      await rerunOnInputChange(project.vitest, project, [dataset.path, config_file])
    }
    const replanned = await plan(startup)
    try {
      await checkLiveEndpoints(replanned)
    } catch (error) {
      // As at start: a run stopped by the check leaves no run folder behind.
      await releaseUnused()
      throw error
    }
    // The concurrency, timeout and heap the edited settings ask for (the plugin set the first run's).
    applyExecutionSettings(project.config, replanned.settings)
  }
  const rerun = async (specifications: readonly TestSpecification[]) => {
    // Vitest calls every project's hook at every rerun, with the spec files it reruns: the watcher's, or those
    // the UI or the API asked for (the `r` key and the UI's "rerun all" pass every file, so every project
    // replans). A project none of whose files is among them runs nothing, so it plans nothing: no new folder, no
    // live check, no problem to print. It keeps its run (the plan its last run wrote with, or the problem its last
    // rerun could not start with), which the canonical reporter leaves out of this run (reporters/canonical.ts).
    if (!specifications.some((specification) => specification.project.name === project.name)) {
      // Held like any rerun until the running run ended, so this project's plan is not released under it (the
      // reporter pairs each run's end with its own start, whatever order the starts came in: reporters/canonical.ts).
      await project.vitest.waitForTestRunEnd()
      return
    }
    try {
      await replan()
    } catch (error) {
      // Thrown from here, the error would end the watch process (Vitest does not catch it).
      const problem = startupFailureText(options.phase, error)
      project.provide('liveEvalsRun', { state: 'not_started', problem })
      project.vitest.logger.error(problem)
    }
  }
  // One rerun's planning at a time: Vitest starts the hook of a second save while the first is still planning,
  // and two plannings at once would release each other's folders and provide each other's plan.
  let reruns = Promise.resolve()
  project.onTestsRerun((specifications) => {
    reruns = reruns.then(() => rerun(specifications))
    return reruns
  })
  return releaseUnused
}
