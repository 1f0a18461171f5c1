// GPT-Live's Responses delegation takes function tools in its own shape. The delegated model may send
// an explicit null for an optional argument, so each optional property also admits null; the schema
// is closed (`additionalProperties: false`); `strict` is left out because the service decides it.
import type { FunctionTool } from 'openai/resources/live/live'
import type { JsonObject } from '../offline-behaviour.ts'
import { deepCopy, isJsonObject } from './json.ts'
import type { FunctionToolDefinition } from './tool-definitions.ts'

const nullSchema = { type: 'null' } as const

function admitsNull(schema: JsonObject): boolean {
  if (schema.type === 'null') return true
  const anyOf = schema.anyOf
  return Array.isArray(anyOf) && anyOf.some((branch) => isJsonObject(branch) && branch.type === 'null')
}

/** The definitions rewritten for GPT-Live; the input is not modified. */
export function normalizeLiveTools(definitions: readonly FunctionToolDefinition[]): FunctionTool[] {
  return definitions.map((definition) => {
    const parameters = deepCopy(definition.parameters)
    const required = new Set(parameters.required ?? [])
    const properties: Record<string, JsonObject> = {}
    for (const [key, schema] of Object.entries(parameters.properties)) {
      // Wrapping twice would nest anyOf for nothing; an already nullable property is left alone.
      properties[key] =
        required.has(key) || admitsNull(schema) ? schema : { anyOf: [schema, { ...nullSchema }] }
    }
    const tool: FunctionTool = {
      type: 'function',
      name: definition.name,
      parameters: { ...parameters, properties, additionalProperties: false },
    }
    if (definition.description !== undefined) tool.description = definition.description
    return tool
  })
}
