// Cassettes: a live execution recorded as data (schema.ts), and replayed keyless by a loopback server that
// answers what is sent now (replay-server.ts), reporting the first divergence.
import type { PhaseSettings } from '../config/index.ts'
import type { ScenarioExecution } from '../phases/engine/execution.ts'
import { type CassetteExecutionContext, recordExecution } from './recording.ts'
import { replayExecution } from './replaying.ts'

export { cassetteFetch } from './scope.ts'

/** The engine's one call: record, replay, or run the stages as they are. */
export function runWithCassette<Execution extends ScenarioExecution>(
  context: CassetteExecutionContext<Execution>,
): Promise<Execution> {
  const settings: PhaseSettings = context.env.settings
  if (settings.replay.enabled) return replayExecution(context)
  if (settings.execution.record) return recordExecution(context)
  return context.run()
}
