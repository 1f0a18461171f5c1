// A phase is a small module: how its caller is produced and how its conversation is driven and observed. The
// engine (run-scenario.ts) does the rest, the same for every phase: assess, record, and the failure rows.
// Adding a phase is its module under src/phases/<phase>/, its specs/<phase>/, and one line in registry.ts.
import type { ScenarioApplication } from '../../assistants/architectures/index.ts'
import type { Architecture } from '../../assistants/frontend/index.ts'
import type { Phase, PhaseSettings } from '../../config/index.ts'
import type { SessionTimeline } from '../../observability/timeline.ts'
import type { SessionTrace } from '../../observability/trace.ts'
import type { Scenario } from '../../scenarios/index.ts'
import type { CallerAudio, CallerSource } from './caller.ts'
import type { ScenarioEnv } from './execution.ts'
import type { ObservedConversation } from './observed.ts'

export interface DriveOptions {
  signal?: AbortSignal
  /** The scenario's application, built beforehand (the `toolState` fixture). */
  application: ScenarioApplication
}

/** A conversation whose sessions are open: from here on, what was seen can be written as artifacts. */
export interface OpenConversation {
  readonly timeline: SessionTimeline
  readonly trace: SessionTrace
  /** Drives the conversation to its end on the media clock and observes it. */
  run(): Promise<ObservedConversation>
  /** After a failure: stops listening and closes every session, once. */
  abort(): Promise<void>
}

export interface ConversationDriver {
  /** Opens the assistant under test (and, for RUN, the caller's session). */
  open(
    scenario: Scenario,
    env: ScenarioEnv,
    caller: CallerAudio,
    options: DriveOptions,
  ): Promise<OpenConversation>
}

export interface PhaseModule {
  readonly phase: Phase
  readonly interaction: 'single_turn' | 'multi_turn'
  /** Chosen once per test file: how this run's callers are produced (it may hold a cache or a client). */
  callerSource(settings: PhaseSettings): CallerSource
  readonly driver: ConversationDriver
  /** The `configuration` block of the run's results.json (reference §4.1), for one architecture. */
  configuration(settings: PhaseSettings, architecture: Architecture): Record<string, unknown>
  /** How long one scenario test may take, everything included. */
  testTimeoutMs(settings: PhaseSettings): number
}
