// `execution.verbose`: every driver prints the readable account of its conversation (console-transcript.ts) once it
// is observed, headed by the scenario and the assistant under test, to the scenario test's own console (the
// driver's `print`) or console.log without one.
import type { PhaseSettings } from '../../config/index.ts'
import { consoleTranscript } from '../../observability/console-transcript.ts'
import type { ToolExecution } from '../../observability/observation.ts'
import type { SessionTimeline } from '../../observability/timeline.ts'
import type { Scenario } from '../../scenarios/index.ts'
import type { ScenarioEnv } from './execution.ts'
import type { DriveOptions } from './phase-module.ts'

/** What the account is made of: the timeline the conversation was heard on, its tool calls and how it ended. */
interface ObservedCall {
  timeline: SessionTimeline
  observation: { tool_executions: readonly ToolExecution[]; termination_reason: string | null }
}

/** Prints the account when `execution.verbose` is on; `note` follows the assistant in its heading (RUN says so). */
export function printVerboseTranscript(
  scenario: Pick<Scenario, 'id'>,
  env: Pick<ScenarioEnv<PhaseSettings>, 'settings' | 'architecture'>,
  options: Pick<DriveOptions, 'print'>,
  { timeline, observation }: ObservedCall,
  note?: string,
): void {
  if (!env.settings.execution.verbose) return
  const heading = `${scenario.id} (${env.architecture.name} assistant${note === undefined ? '' : `, ${note}`})`
  const print = options.print ?? console.log
  print(consoleTranscript(heading, timeline, observation.tool_executions, observation.termination_reason))
}
