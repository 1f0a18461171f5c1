// A phase is a small module: how its caller is produced, how its conversation is driven and observed, and how what
// was observed is graded and recorded (single-turn phases share one grader, RUN has its own). The engine
// (run-scenario.ts) runs the stages in order, the same for every phase, and turns any failure into the phase's
// infrastructure_error row. Adding a phase is its module under src/phases/<phase>/ (with its description.ts,
// what planning needs of it), its specs/<phase>/, and one line each in registry.ts and descriptions.ts.
//
// The module is generic in what its driver observes and what its execution holds, so each phase's grader reads
// its own observation type; the methods are declared as methods (bivariant), so the registry can hold every phase
// as a plain PhaseModule.
import type { ScenarioApplication } from '../../assistants/architectures/index.ts'
import type { Architecture } from '../../assistants/frontend/index.ts'
import type { Phase, PhaseSettings } from '../../config/index.ts'
import type { SessionTimeline } from '../../observability/timeline.ts'
import type { SessionTrace } from '../../observability/trace.ts'
import type { Scenario } from '../../scenarios/index.ts'
import type { ArtifactPaths } from './artifacts.ts'
import type { CallerAudio, CallerSource } from './caller.ts'
import type { ScenarioEnv, ScenarioExecution } from './execution.ts'
import type { RecordOptions } from './record.ts'
import type { StageFailure } from './stage.ts'

export interface DriveOptions {
  signal?: AbortSignal
  /** The scenario's application, built beforehand (the `toolState` fixture). */
  application: ScenarioApplication
  /**
   * Where the readable account of the conversation goes (execution.verbose): the scenario test's own console
   * output (src/vitest/test-console.ts), so concurrent scenarios each show theirs; console.log when absent.
   */
  print?: (text: string) => void
}

/** A conversation whose sessions are open: from here on, what was seen can be written as artifacts. */
export interface OpenConversation<Observed = unknown> {
  readonly timeline: SessionTimeline
  readonly trace: SessionTrace
  /** Drives the conversation to its end on the media clock and observes it. */
  run(): Promise<Observed>
  /** After a failure: stops listening and closes every session, once. */
  abort(): Promise<void>
}

export interface ConversationDriver<Observed = unknown, Settings extends PhaseSettings = PhaseSettings> {
  /** Opens the assistant under test (and, for RUN, the caller's session). */
  open(
    scenario: Scenario,
    env: ScenarioEnv<Settings>,
    caller: CallerAudio,
    options: DriveOptions,
  ): Promise<OpenConversation<Observed>>
}

/** The assess and record stages of a phase: grades what was observed, writes the artifacts and the row. */
export interface ConversationGrader<
  Observed = unknown,
  Execution extends ScenarioExecution = ScenarioExecution,
  Settings extends PhaseSettings = PhaseSettings,
> {
  grade(
    scenario: Scenario,
    env: ScenarioEnv<Settings>,
    caller: CallerAudio,
    observed: Observed,
    written: ArtifactPaths,
    options: RecordOptions,
  ): Promise<Execution>
  /** The infrastructure_error execution for a failure at `failure.stage`, with what was written so far. */
  failed(
    scenario: Pick<Scenario, 'id' | 'title'>,
    failure: StageFailure,
    written?: ArtifactPaths,
    /** The trial of a trials run (ScenarioEnv.trial); null otherwise. */
    trial?: number | null,
  ): Execution
}

/**
 * What the main process needs of a phase to plan a run and configure Vitest (descriptions.ts): no driver, no
 * grader, so planning never loads the assistants, the audio path or the openai SDK.
 */
export interface PhaseDescription<Execution extends ScenarioExecution = ScenarioExecution> {
  readonly phase: Phase
  readonly interaction: Execution['interaction']
  /**
   * The `configuration` block of the run's results.json (reference §4.1), for one architecture. Paths in it are
   * relative to `projectRoot` (Vitest's root; default the working directory), never absolute.
   */
  configuration(
    settings: PhaseSettings,
    architecture: Architecture,
    projectRoot?: string,
  ): Record<string, unknown>
  /** How long one scenario test may take, everything included. */
  testTimeoutMs(settings: PhaseSettings): number
}

export interface PhaseModule<
  Observed = unknown,
  Execution extends ScenarioExecution = ScenarioExecution,
  Settings extends PhaseSettings = PhaseSettings,
> extends PhaseDescription<Execution> {
  /** Chosen once per test file: how this run's callers are produced (it may hold a cache or a client). */
  callerSource(settings: PhaseSettings): CallerSource
  readonly driver: ConversationDriver<Observed, Settings>
  readonly grader: ConversationGrader<Observed, Execution, Settings>
}
