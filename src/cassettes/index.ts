// Cassettes: a live execution recorded as data (schema.ts), and replayed keyless by a loopback server that
// answers what is sent now (replay-server.ts), reporting the first divergence.
import type { PhaseSettings } from '../config/index.ts'
import type { ScenarioExecution } from '../phases/engine/execution.ts'
import { replayCallerExecution } from './caller/replayed-caller.ts'
import { type CassetteExecutionContext, recordExecution } from './recording.ts'
import { replayExecution } from './replaying.ts'

export { cassetteFetch } from './scope.ts'

/** The engine's one call: replay a recorded caller into the live assistant, replay, record, or run as they are. */
export function runWithCassette<Execution extends ScenarioExecution>(
  context: CassetteExecutionContext<Execution>,
): Promise<Execution> {
  const settings: PhaseSettings = context.env.settings
  if (typeof settings.replay.caller === 'string') return replayCallerExecution(context)
  if (settings.replay.enabled) return replayExecution(context)
  if (settings.execution.record) return recordExecution(context)
  return context.run()
}
