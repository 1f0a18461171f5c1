// replay.caller_tools = "cassette": the assistant's tools answered with the recording's outputs instead of the
// application's. A call answers with the output of an unused recorded execution of the same tool and equal
// arguments (compared as replay compares everything, src/cassettes/match.ts); a call the recording never made is
// refused as the tool would refuse a bad call (ToolArgumentError), so the assistant hears a failure and the row
// shows it. The application itself is never called, so its state does not change: state checks read the initial
// state, which the row's note says.
import type { AssistantApplication } from '../../assistants/application.ts'
import { ToolArgumentError, type ToolExecutor } from '../../assistants/runtime/tool-executor.ts'
import type { JsonObject } from '../../scenarios/index.ts'
import { firstDifference } from '../match.ts'

export interface RecordedToolExecution {
  name: string
  arguments: unknown
  status: string
  output: unknown
}

/** The recorded executions a cassette keeps (the observation's record), or none. */
export function recordedToolExecutions(toolExecutions: unknown): RecordedToolExecution[] {
  if (!Array.isArray(toolExecutions)) return []
  return toolExecutions.filter(
    (execution): execution is RecordedToolExecution =>
      typeof execution === 'object' && execution !== null && typeof execution.name === 'string',
  )
}

export function applicationAnsweredFromCassette(
  application: AssistantApplication,
  recorded: readonly RecordedToolExecution[],
): AssistantApplication {
  return {
    name: application.name,
    voicePrompt: application.voicePrompt,
    backendPrompt: application.backendPrompt,
    tools: application.tools,
    publicFacts: (facts) => application.publicFacts(facts),
    createExecutor(options): ToolExecutor {
      const inner = application.createExecutor(options)
      const unused = recorded.filter((execution) => execution.status === 'completed')
      return {
        get definitions() {
          return inner.definitions
        },
        get executions() {
          return inner.executions
        },
        execute(name, args) {
          const found = unused.find(
            (execution) => execution.name === name && firstDifference(execution.arguments, args) === null,
          )
          if (found === undefined) {
            throw new ToolArgumentError(
              `the recording has no ${name} call with these arguments (${JSON.stringify(args)}); ` +
                'replay.caller_tools = "cassette" answers only calls the recorded conversation made',
            )
          }
          unused.splice(unused.indexOf(found), 1)
          return structuredClone(found.output) as JsonObject
        },
        snapshot: () => inner.snapshot(),
      }
    },
    ...(application.offlineBehaviour === undefined
      ? {}
      : { offlineBehaviour: application.offlineBehaviour.bind(application) }),
  }
}
