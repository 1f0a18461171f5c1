// Tools as a client backend sees them: a callback into the host's application. The host (a test, the
// harness, the reference service) owns the executor and its state; the backend only names a tool, passes
// arguments and reads the output. Every call is published as `tool.called` then `tool.completed`.
import type { JsonObject } from '../../offline-behaviour.ts'
import type { ToolRuntime } from '../../runtime/tool-runtime.ts'
import type { ApplicationToolCallback, EmitObservation } from './application-backend.ts'

/** Wires the tool callback to a scenario's ToolRuntime (async execution, call_id dedupe, failure records). */
export function runtimeToolCallback(runtime: ToolRuntime): ApplicationToolCallback {
  return async (name, args, callId) => {
    const result = await runtime.run({ callId, name, arguments: args })
    return structuredClone(result.record.output)
  }
}

/** Runs one tool call through the callback and publishes it before and after. */
export async function callToolObserved(
  callTool: ApplicationToolCallback,
  emit: EmitObservation,
  call: { name: string; arguments: JsonObject; callId: string },
): Promise<JsonObject> {
  emit({
    type: 'tool.called',
    call_id: call.callId,
    name: call.name,
    arguments: structuredClone(call.arguments),
  })
  const output = await callTool(call.name, structuredClone(call.arguments), call.callId)
  emit({ type: 'tool.completed', call_id: call.callId, name: call.name, output: structuredClone(output) })
  return output
}
