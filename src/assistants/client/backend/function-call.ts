// What the reference backend accepts from a model's function call before it touches the application:
// a name, a call_id not completed before, and arguments that form a JSON object. Null values mean "not
// given" and go; blank strings go too unless the parameter is required (where the executor must see them).
import type { ResponseFunctionToolCall } from 'openai/resources/responses/responses'
import type { JsonObject } from '../../offline-behaviour.ts'
import { isJsonObject } from '../../runtime/json.ts'
import type { FunctionToolDefinition } from '../../runtime/tool-definitions.ts'

export class FunctionCallError extends Error {
  override name = 'FunctionCallError'
}

export interface CheckedFunctionCall {
  name: string
  callId: string
  arguments: JsonObject
}

export function checkFunctionCall(
  call: ResponseFunctionToolCall,
  definitions: readonly FunctionToolDefinition[],
  completedCallIds: ReadonlySet<string>,
): CheckedFunctionCall {
  if (typeof call.name !== 'string' || call.name === '') {
    throw new FunctionCallError('OpenAI Responses function call has no name')
  }
  if (typeof call.call_id !== 'string' || call.call_id === '') {
    throw new FunctionCallError(`OpenAI Responses function call ${call.name} has no call_id`)
  }
  if (completedCallIds.has(call.call_id)) {
    throw new FunctionCallError(`OpenAI Responses repeated the already completed call_id ${call.call_id}`)
  }
  const raw: unknown = call.arguments
  let parsed: unknown = raw
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw)
    } catch {
      throw new FunctionCallError(`Arguments of ${call.name} (${call.call_id}) are not valid JSON`)
    }
  }
  if (!isJsonObject(parsed)) {
    throw new FunctionCallError(`Arguments of ${call.name} (${call.call_id}) must be a JSON object`)
  }
  const required = new Set(definitions.find((tool) => tool.name === call.name)?.parameters.required ?? [])
  const kept: JsonObject = {}
  for (const [key, value] of Object.entries(parsed)) {
    if (value === null) continue
    if (typeof value === 'string' && value.trim() === '' && !required.has(key)) continue
    kept[key] = value
  }
  return { name: call.name, callId: call.call_id, arguments: kept }
}
