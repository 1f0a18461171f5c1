// Entity errors (issue 21): the expected entities (names, dates, times and ids in the expected tool arguments and
// the expected state) missing or altered in what the assistant sent to tools or said. Deterministic, reported by
// entity, evaluator-side only: the expectation is read after the call and never reaches the assistant.
//
// - An entity is a string or number under a key that names its kind: `…name` (name), `…date` (date), `…time`
//   (time), `id` or `…_id` (id), at any depth of `expected.tools.required[i].arguments` or `expected.state`.
//   The same kind and value found twice (a booking's name in its arguments and its state) is one entity; its
//   source is the first place (tool arguments before state). A state entity the initial state already holds at
//   the same place (another guest's booking, an id the call does not touch) is not expected of the call: only
//   what the call must produce or change is, so an assistant that keeps other guests' details to itself is right.
// - Checked against the tool calls sent: correct when a call (of the expected tool, for a tool argument; of any
//   tool, for a state entity) carries it under its key with the expected value (the graders' matching,
//   grading/matching.ts); altered when calls carry that key but only with other values.
// - Otherwise against what the assistant said (every assistant utterance), in any spoken form of the value
//   (grading/run/spoken-values.ts: "August 14" for 2026-08-14, "7 p.m." for 19:00): correct when said, missing
//   when not. Speech can show an entity missing, not altered: which other words stand for it is not decidable.
// - errors = missing + altered; null when the scenario expects no entity at all.
import { isJsonObject } from '../grading/json-values.ts'
import { expectedValueMatches } from '../grading/matching.ts'
import { mentionsValue } from '../grading/run/spoken-values.ts'
import type { EntityErrors, EntityOutcome } from '../reporting/extensions/voice-metrics.ts'

export interface SentToolCall {
  name: string
  arguments: Record<string, unknown>
}

export interface EntityExpectation {
  required_tools: readonly { name: string; arguments: Record<string, unknown> }[]
  state: Record<string, unknown>
  /** The application's state before the call: a state entity already there is not one the call must produce. */
  initial_state: Record<string, unknown>
}

type EntityKind = EntityOutcome['kind']

interface ExpectedEntity {
  kind: EntityKind
  key: string
  /** The key's path inside one call's arguments (tool entities) or inside the state. */
  path: readonly (string | number)[]
  source: string
  tool: string | null
  value: string | number
}

/** Deep enough for any booking state; deeper nesting is not an entity a caller speaks. */
const MAX_DEPTH = 6
const MAX_ENTITIES = 200

export function entityKind(key: string): EntityKind | null {
  if (/(?:^|_)id$/i.test(key)) return 'id'
  if (/name$/i.test(key)) return 'name'
  if (/date$/i.test(key)) return 'date'
  if (/time$/i.test(key)) return 'time'
  return null
}

function formatPath(root: string, path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : `${text}.${part}`),
    root,
  )
}

function collect(
  value: unknown,
  path: (string | number)[],
  visit: (key: string, path: (string | number)[], value: string | number) => void,
): void {
  if (path.length > MAX_DEPTH) return
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      collect(item, [...path, index], visit)
    })
    return
  }
  if (!isJsonObject(value)) return
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' || typeof item === 'number') visit(key, [...path, key], item)
    else collect(item, [...path, key], visit)
  }
}

export function expectedEntities(expectation: EntityExpectation): ExpectedEntity[] {
  const entities: ExpectedEntity[] = []
  const seen = new Set<string>()
  const add = (entity: ExpectedEntity) => {
    const identity = JSON.stringify([entity.kind, String(entity.value).toLowerCase()])
    if (seen.has(identity) || entities.length >= MAX_ENTITIES) return
    seen.add(identity)
    entities.push(entity)
  }
  expectation.required_tools.forEach((call, index) => {
    const root = `tools.required[${index}].arguments`
    collect(call.arguments, [], (key, path, value) => {
      const kind = entityKind(key)
      if (kind !== null) add({ kind, key, path, source: formatPath(root, path), tool: call.name, value })
    })
  })
  collect(expectation.state, [], (key, path, value) => {
    const kind = entityKind(key)
    if (kind !== null && !heldBefore(expectation.initial_state, path, value))
      add({ kind, key, path, source: formatPath('state', path), tool: null, value })
  })
  return entities
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let value = root
  for (const part of path) {
    if (typeof part === 'number') value = Array.isArray(value) ? value[part] : undefined
    else value = isJsonObject(value) && Object.hasOwn(value, part) ? value[part] : undefined
  }
  return value
}

function heldBefore(initial: unknown, path: readonly (string | number)[], value: string | number): boolean {
  const before = valueAt(initial, path)
  return before !== undefined && expectedValueMatches(value, before)
}

/** Every value a call carries under `key`, at any depth of its arguments. */
function valuesUnder(argumentsObject: unknown, key: string): unknown[] {
  const found: unknown[] = []
  const walk = (value: unknown, depth: number) => {
    if (depth > MAX_DEPTH) return
    if (Array.isArray(value)) for (const item of value) walk(item, depth + 1)
    else if (isJsonObject(value)) {
      for (const [name, item] of Object.entries(value)) {
        if (name === key && (typeof item !== 'object' || item === null)) found.push(item)
        else walk(item, depth + 1)
      }
    }
  }
  walk(argumentsObject, 0)
  return found
}

function outcomeOf(entity: ExpectedEntity, calls: readonly SentToolCall[], said: string): EntityOutcome {
  const relevant = entity.tool === null ? calls : calls.filter((call) => call.name === entity.tool)
  const sent = relevant.flatMap((call) => valuesUnder(call.arguments, entity.key))
  const base = { kind: entity.kind, source: entity.source, expected: entity.value }
  if (sent.some((value) => expectedValueMatches(entity.value, value)))
    return { ...base, status: 'correct', observed: null, found_in: 'tool' }
  // A tool that got another value is an error whatever was said: the record holds what the tool got.
  if (sent.length > 0) return { ...base, status: 'altered', observed: sent[0], found_in: 'tool' }
  if (mentionsValue(said, entity.value))
    return { ...base, status: 'correct', observed: null, found_in: 'speech' }
  return { ...base, status: 'missing', observed: null, found_in: null }
}

export function entityErrors(
  expectation: EntityExpectation,
  calls: readonly SentToolCall[],
  assistantUtterances: readonly string[],
): EntityErrors {
  const entities = expectedEntities(expectation)
  const said = assistantUtterances.join(' \n ')
  const byEntity = entities.map((entity) => outcomeOf(entity, calls, said))
  return {
    entities: byEntity.length,
    errors: byEntity.length === 0 ? null : byEntity.filter((outcome) => outcome.status !== 'correct').length,
    by_entity: byEntity,
  }
}
