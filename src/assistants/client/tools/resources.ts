// This copy's bundled resources: the tool definitions and the business facts of Juniper Table. Each
// call reads the file again, so every caller owns a private copy and nobody can change the files.
// This is the client backend's own copy; the responses backend keeps an independent one on purpose (each
// backend is self-contained) and src/assistants/parity proves the two agree.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { JsonObject } from '../../offline-behaviour.ts'
import { isJsonObject } from '../../runtime/json.ts'
import { type FunctionToolDefinition, readToolDefinitions } from '../../runtime/tool-definitions.ts'

export const definitionsFile = fileURLToPath(new URL('./definitions.json', import.meta.url))
export const factsFile = fileURLToPath(new URL('./facts.json', import.meta.url))

/** The three restaurant function tools, checked. */
export function restaurantToolDefinitions(): FunctionToolDefinition[] {
  return readToolDefinitions(definitionsFile)
}

/** All business facts, including the private availability overrides (executor only). */
export function restaurantFacts(): JsonObject {
  const value: unknown = JSON.parse(readFileSync(factsFile, 'utf8'))
  if (!isJsonObject(value)) {
    throw new Error(`Restaurant facts file ${factsFile} must hold a JSON object; restore it from git.`)
  }
  return value
}

/**
 * The facts the assistant may see: everything except `availability_overrides`, which decide
 * availability privately and would let the assistant answer without calling the tool.
 */
export function publicBusinessFacts(facts: JsonObject = restaurantFacts()): JsonObject {
  const { availability_overrides: _private, ...visible } = structuredClone(facts)
  return visible
}
