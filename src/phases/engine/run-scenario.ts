// The engine: one scenario through the stages every phase shares.
//
//   caller source ─▶ drive (assistant under test + media clock) ─▶ observe ─▶ assess ─▶ record ─▶ row
//
// A phase module supplies the caller source, the driver (drive and observe) and the grader (assess and record);
// the order and the failure handling are here. Any failure becomes an infrastructure_error row naming the stage
// that was running (or the one the error names), with the artifacts written so far kept and unknown counts null.
import { runWithCassette } from '../../cassettes/index.ts'
import type { PhaseSettings } from '../../config/index.ts'
import { faultReachProblem } from '../../faults/reach.ts'
import { NO_ARTIFACTS } from '../../reporting/result-item.ts'
import type { Scenario } from '../../scenarios/index.ts'
import { placeholderExpectationProblem } from '../../scenarios/placeholder-expectation.ts'
import { type ArtifactPaths, artifactNameOf, writeSessionArtifacts } from './artifacts.ts'
import type { CallerAudio } from './caller.ts'
import type { ScenarioEnv, ScenarioExecution } from './execution.ts'
import type { DriveOptions, OpenConversation, PhaseModule } from './phase-module.ts'
import type { RecordOptions } from './record.ts'
import { type FailureStage, StageError, stageFailureOf } from './stage.ts'

export interface RunScenarioOptions extends DriveOptions, RecordOptions {
  /** The request exactly as it is to be streamed (the `callerAudio` fixture); default: prepared here. */
  callerAudio?: CallerAudio
  /** Called with the error that ended the execution, before it becomes the failure row (the live run's stop). */
  onFailure?: (error: unknown) => Promise<void>
}

export async function runScenario<
  Observed,
  Execution extends ScenarioExecution,
  Settings extends PhaseSettings,
>(
  phase: PhaseModule<Observed, Execution, Settings>,
  scenario: Scenario,
  env: ScenarioEnv<Settings>,
  options: RunScenarioOptions,
): Promise<Execution> {
  // Recording or replaying (src/cassettes) wraps the same stages; otherwise they run as they are.
  return runWithCassette({
    scenario,
    env,
    application: options.application,
    // A replayed caller may put another application in front of the assistant's tools (src/cassettes/caller).
    run: (application) =>
      runStages(phase, scenario, env, application === undefined ? options : { ...options, application }),
    failed: (failure) => phase.grader.failed(scenario, failure, { ...NO_ARTIFACTS }, env.trial ?? null),
  })
}

async function runStages<Observed, Execution extends ScenarioExecution, Settings extends PhaseSettings>(
  phase: PhaseModule<Observed, Execution, Settings>,
  scenario: Scenario,
  env: ScenarioEnv<Settings>,
  options: RunScenarioOptions,
): Promise<Execution> {
  const written: ArtifactPaths = { ...NO_ARTIFACTS }
  const signal = options.signal === undefined ? {} : { signal: options.signal }
  let conversation: OpenConversation<Observed> | null = null
  let stage: FailureStage = 'input_setup'
  try {
    // An expectation still as live-evals import-call left it cannot be graded; no run of it may pass.
    const unwritten = placeholderExpectationProblem(scenario)
    if (unwritten !== null) throw new StageError('input_setup', unwritten)
    checkFaultsReachable(phase.phase, env)
    const caller = options.callerAudio ?? (await env.callerSource.prepare(scenario, signal))
    stage = 'connection'
    conversation = await phase.driver.open(scenario, env, caller, {
      ...signal,
      application: options.application,
      print: options.print,
    })
    stage = 'response_collection'
    const observed = await conversation.run()
    stage = 'example_execution'
    return await phase.grader.grade(scenario, env, caller, observed, written, options)
  } catch (error) {
    const failure = stageFailureOf(error, stage)
    await options.onFailure?.(error)
    if (conversation !== null) {
      await conversation.abort()
      try {
        await writeSessionArtifacts(
          env.runDirectory,
          artifactNameOf(scenario, env),
          conversation.timeline,
          conversation.trace,
          written,
        )
      } catch {
        // Keep whatever was written; the row below still reports the original failure.
      }
    }
    return phase.grader.failed(scenario, failure, written, env.trial ?? null)
  }
}

/** A fault profile with a rule the harness cannot carry out here fails the scenario at input_setup (reach.ts). */
function checkFaultsReachable(phase: PhaseModule['phase'], env: ScenarioEnv<PhaseSettings>): void {
  if (env.faultsProblem != null) throw new StageError('input_setup', env.faultsProblem)
  const chosen = env.faults ?? null
  if (chosen === null) return
  const mode = env.settings.execution.mode
  const problem = faultReachProblem(chosen.profile, {
    architecture: env.architecture.name,
    planes: env.architecture.faultPlanes(mode),
    note: env.architecture.faultReachNote,
    mode,
    phase,
  })
  if (problem !== null) throw new StageError('input_setup', problem)
}
