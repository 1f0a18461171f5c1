// The re-runs of one failed scenario, through the project's own Vitest run: the spec file that evaluated it runs it
// again, as the run ran it, unchanged and under each applicable intervention, k times each, with its own assistant,
// tools and test body. The command writes the re-run plan (rerun-plan.ts) into `reruns/<scenario id>/`, starts
// `vitest run` on the phase's project with LIVE_EVALS_EXPLAIN_PLAN naming it, keeps what Vitest printed in
// `vitest.log` there, and reads each arm's rows back from `reruns/<scenario id>/<arm>/results.json`.
import { readFile, rm } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { makePrivateDirectories, writeArtifact, writeJsonArtifact } from '../artifacts/index.ts'
import { RESULTS_FILE } from '../artifacts/results-file-name.ts'
import { withEnvironment } from '../cli/cassette-runs.ts'
import type { CommandIO } from '../cli/main.ts'
import {
  childEnvironment,
  runVitestChild,
  type VitestInvocation,
  type VitestOutcome,
} from '../cli/vitest-child.ts'
import { scenarioSnapshotDocument } from '../phases/engine/scenario-snapshot.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import { type ResultItem, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { rowKeyOf } from '../reporting/row-key.ts'
import { attachmentsDirectoryIn } from '../vitest/plugin/root-options.ts'
import type { ScenarioPlan } from './plan.ts'
import { EXPLAIN_PLAN_VARIABLE, type RerunPlan } from './rerun-plan.ts'
import type { Rerun } from './schema.ts'
import { failedChecksOf, failedDimensionsOf, type SourceRun } from './source-run.ts'
import { failureResolved } from './taxonomy.ts'
import type { TrialDraws } from './trial-draws.ts'

/** Which Vitest run re-runs the scenarios, and how it is started. */
export interface ProjectRunner {
  /** The Vitest config file; null: Vitest's own lookup from `cwd`. */
  vitestConfig: string | null
  /** The Vitest project; null: the phase's name (liveEvalsProject's default). */
  project: string | null
  /** The phase's config.toml given to explain (--config): the run reads it too (LIVE_EVALS_CONFIG). */
  configToml: string | null
  env: Record<string, string | undefined>
  cwd: string
  /** Tests replace how Vitest is started; default: a child process. */
  runVitest?: (invocation: VitestInvocation, io: CommandIO) => Promise<VitestOutcome>
}

export interface ProjectRerunRequest {
  run: SourceRun
  plan: ScenarioPlan
  draws: TrialDraws[]
  /** What the run recorded about how it ran, as settings overrides (rerun-settings.ts). */
  settings: Record<string, Record<string, unknown>>
  /** The explain folder. */
  directory: string
  signal?: AbortSignal
}

export type ProjectReruns =
  /** Per arm (the control first), one re-run per trial. */
  | { ran: true; arms: Rerun[][] }
  /** No test of the project re-ran the scenario: why, in words. */
  | { ran: false; message: string }

/** The folder of one scenario's re-runs inside the explain folder; each arm's run folder is below it. */
export function scenarioRerunDirectory(directory: string, scenarioId: string): string {
  return join(directory, 'reruns', scenarioId)
}

/** The test names a re-run registers (src/vitest/rerun-suite.ts): every other test of the project is left out. */
const RERUN_TESTS = '^explain [^ ]+ > '

/** Variables of the user's environment that would make the re-runs something else than the run's scenario again. */
const CLEARED = {
  LIVE_EVALS_RUN_NAME: null,
  LIVE_EVALS_RECORD: null,
  LIVE_EVALS_MODELS: null,
  LIVE_EVALS_RESULTS_DIR: null,
  LIVE_EVALS_REPLAY_REGRADE: null,
}

function rerunPlanOf(request: ProjectRerunRequest, folder: string): RerunPlan {
  const { run, plan, draws } = request
  const record = plan.failed.failedRow.observability?.[EXTENSION_KEY]?.faults
  return {
    phase: run.module,
    scenario_id: plan.failed.scenarioId,
    assistant: plan.failed.failedRow.observability?.[EXTENSION_KEY]?.assistant ?? null,
    architecture: run.architecture,
    directory: folder,
    scenario: scenarioSnapshotDocument(plan.failed.scenario),
    faults:
      record === undefined ? null : { profile: record.profile, seed: record.seed, source: record.source },
    draws,
    arms: [{ arm: 'control', change: null }, ...plan.arms.map(({ arm, change }) => ({ arm, change }))],
    // Each scenario's arms are run folders below its own folder, as a run's are below its results folder.
    settings: { ...request.settings, execution: { ...request.settings.execution, results_dir: folder } },
  }
}

async function rowsOf(file: string): Promise<ResultItem[] | null> {
  try {
    return ResultsDocumentSchema.parse(JSON.parse(await readFile(file, 'utf8'))).results
  } catch {
    return null
  }
}

/**
 * Trial 1's recordings of each arm are kept (to listen to the control against an intervention); later trials keep
 * their transcripts, events and details but not their WAVs: k WAV triples per arm per scenario would make an
 * explain folder hundreds of megabytes.
 */
async function dropRepeatedAudio(armDirectory: string, row: ResultItem, trial: number): Promise<void> {
  if (trial === 1) return
  const { input_audio, output_audio, conversation_audio } = row.artifacts
  for (const path of [input_audio, output_audio, conversation_audio]) {
    if (path !== null) await rm(join(armDirectory, path), { force: true })
  }
}

function rerunOfRow(
  request: ProjectRerunRequest,
  armDirectory: string,
  row: ResultItem,
  trial: number,
): Rerun {
  const failedChecks = failedChecksOf(row)
  return {
    trial,
    draws: request.draws[trial - 1] as TrialDraws,
    status: row.status,
    resolved: failureResolved(
      { status: row.status, failed_checks: failedChecks },
      failedChecksOf(request.plan.failed.failedRow),
    ),
    failed_checks: failedChecks,
    failed_dimensions: failedDimensionsOf(row),
    error: row.error,
    details:
      row.artifacts.details === null
        ? null
        : relative(request.directory, join(armDirectory, row.artifacts.details)),
  }
}

const lastLines = (output: string, count: number) =>
  output
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(-count)
    .join('\n    ')

/** Runs the scenario's arms in the project's Vitest run and reads their rows back. */
export async function rerunInProject(
  runner: ProjectRunner,
  request: ProjectRerunRequest,
): Promise<ProjectReruns> {
  const { plan } = request
  const folder = scenarioRerunDirectory(request.directory, plan.failed.scenarioId)
  await makePrivateDirectories(folder, 'explain re-run folder')
  const planFile = await writeJsonArtifact(folder, 'rerun-plan.json', rerunPlanOf(request, folder))
  const project = runner.project ?? request.run.module
  const args = [
    'run',
    ...(runner.vitestConfig === null ? [] : ['--config', resolve(runner.cwd, runner.vitestConfig)]),
    '--project',
    project,
    '-t',
    RERUN_TESTS,
  ]
  let output = ''
  const keep = { out: (text: string) => (output += text), err: (text: string) => (output += text) }
  const outcome = await (runner.runVitest ?? runVitestChild)(
    {
      args,
      env: withEnvironment(childEnvironment(runner.env), {
        ...CLEARED,
        [EXPLAIN_PLAN_VARIABLE]: planFile,
        ...(runner.configToml === null ? {} : { LIVE_EVALS_CONFIG: resolve(runner.cwd, runner.configToml) }),
      }),
      cwd: runner.cwd,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    },
    keep,
  )
  const log = await writeArtifact(folder, 'vitest.log', output)
  // Vitest's copies of each test's audio, for its UI: the arm folders hold the recordings explain keeps.
  await rm(attachmentsDirectoryIn(folder), { recursive: true, force: true })
  const arms: Rerun[][] = []
  let rows = 0
  for (const arm of ['control', ...plan.arms.map((candidate) => candidate.arm)]) {
    const armDirectory = join(folder, arm)
    const byTrial = new Map(
      ((await rowsOf(join(armDirectory, RESULTS_FILE))) ?? []).map((row) => [rowKeyOf(row).trial, row]),
    )
    rows += byTrial.size
    const reruns: Rerun[] = []
    for (let trial = 1; trial <= request.draws.length; trial++) {
      const row = byTrial.get(trial)
      if (row === undefined) {
        reruns.push({
          trial,
          draws: request.draws[trial - 1] as TrialDraws,
          status: 'infrastructure_error',
          resolved: null,
          failed_checks: [],
          failed_dimensions: [],
          error: {
            stage: 'example_execution',
            message: `the project's Vitest run left no row for trial ${trial} of this arm (see ${log})`,
          },
          details: null,
        })
        continue
      }
      await dropRepeatedAudio(armDirectory, row, trial)
      reruns.push(rerunOfRow(request, armDirectory, row, trial))
    }
    arms.push(reruns)
  }
  if (rows > 0) return { ran: true, arms }
  const command = `vitest ${args.slice(0, -2).join(' ')}`
  const assistant = plan.failed.failedRow.observability?.[EXTENSION_KEY]?.assistant
  return {
    ran: false,
    message:
      outcome.code === 0
        ? `no spec file of the Vitest project "${project}" evaluates ${plan.failed.scenarioId}` +
          `${assistant === undefined ? '' : ` with the assistant "${assistant}"`} any more (\`${command}\` ran no test ` +
          'for it); run explain where the run was made, naming its project with --project and --vitest-config'
        : `the project's Vitest run (\`${command}\`) ended with exit code ${outcome.code} before any re-run:\n    ` +
          `${lastLines(output, 8)}\n  its output: ${log}`,
  }
}
