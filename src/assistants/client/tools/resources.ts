// This copy's bundled resources: the tool definitions and the business facts of Juniper Table. Each file is
// read and checked once per process (a scenario asked for the facts about five times, each a file open);
// every call returns a fresh deep copy, so every caller owns a private copy and nobody can change the cache.
// A file that fails to read or check is not remembered: the next call reads it again and throws again.
// This is the client backend's own copy; the responses backend keeps an independent one on purpose (each
// backend is self-contained) and src/assistants/parity proves the two agree.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { JsonObject } from '../../offline-behaviour.ts'
import { isJsonObject } from '../../runtime/json.ts'
import { type FunctionToolDefinition, readToolDefinitions } from '../../runtime/tool-definitions.ts'

export const definitionsFile = fileURLToPath(new URL('./definitions.json', import.meta.url))
export const factsFile = fileURLToPath(new URL('./facts.json', import.meta.url))

let definitionsOnce: FunctionToolDefinition[] | undefined
let factsOnce: JsonObject | undefined

/** The three restaurant function tools, checked. */
export function restaurantToolDefinitions(): FunctionToolDefinition[] {
  definitionsOnce ??= readToolDefinitions(definitionsFile)
  return structuredClone(definitionsOnce)
}

/** All business facts, including the private availability overrides (executor only). */
export function restaurantFacts(): JsonObject {
  factsOnce ??= readFacts()
  return structuredClone(factsOnce)
}

function readFacts(): JsonObject {
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
export function publicBusinessFacts(facts?: JsonObject): JsonObject {
  // Without an argument the fresh copy from restaurantFacts() is already private: no second clone.
  const { availability_overrides: _private, ...visible } =
    facts === undefined ? restaurantFacts() : structuredClone(facts)
  return visible
}
