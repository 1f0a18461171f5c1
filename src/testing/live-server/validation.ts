// Turns one incoming WebSocket text frame into a parsed client event or the single `error` the service would
// answer with. Like the service, only the first problem is reported, named by its JSON path (`param`).
import type { z } from 'zod'
import { nestsDeeperThan } from '../../live/json-depth.ts'
import {
  clientEventSchemas,
  type ParsedClientEvent,
  type SupportedClientEventType,
  UNSUPPORTED_CLIENT_EVENT_TYPES,
} from './client-events-schema.ts'
import type { OfflineServerLimits } from './limits.ts'
import { ERROR_CODES, type ProtocolError, protocolError, quoted } from './protocol-errors.ts'
import { itemKind } from './response-items-schema.ts'
import { IMMUTABLE_SESSION_FIELDS, MODEL_NOT_FOUND } from './session-config-schema.ts'

export type FrameParseResult =
  | { ok: true; event: ParsedClientEvent; clientEventId: string | undefined }
  | { ok: false; error: ProtocolError; clientEventId: string | undefined }

type JsonRecord = Record<string, unknown>

const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function isSupportedType(type: string): type is SupportedClientEventType {
  return Object.hasOwn(clientEventSchemas, type)
}

/** The limits (limits.ts) a frame is checked against before anything else reads it. */
export type FrameLimits = Pick<OfflineServerLimits, 'maxFrameBytes' | 'maxNestingDepth'>

export function parseClientFrame(text: string, limits: FrameLimits): FrameParseResult {
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > limits.maxFrameBytes) {
    return fail(
      protocolError(
        ERROR_CODES.frameTooLarge,
        `The frame is ${bytes} bytes; the offline server accepts frames of at most ${limits.maxFrameBytes} bytes.`,
      ),
    )
  }
  let raw: unknown
  try {
    // V8's JSON.parse does not recurse, so any nesting parses; the depth is checked before anything walks it.
    raw = JSON.parse(text)
  } catch {
    return fail(
      protocolError(
        ERROR_CODES.invalidEvent,
        'The frame is not valid JSON; send one JSON object per text frame.',
      ),
    )
  }
  const frequent = wellFormedFrequentEvent(raw)
  if (frequent !== null) return { ok: true, event: frequent, clientEventId: frequent.event_id ?? undefined }
  if (nestsDeeperThan(raw, limits.maxNestingDepth)) {
    return fail(
      protocolError(
        ERROR_CODES.nestingTooDeep,
        `The frame nests objects and arrays deeper than ${limits.maxNestingDepth} levels.`,
      ),
    )
  }
  if (!isRecord(raw)) {
    return fail(
      protocolError(ERROR_CODES.invalidEvent, 'A client event must be a JSON object with a string `type`.'),
    )
  }
  const clientEventId = typeof raw.event_id === 'string' ? raw.event_id : undefined
  const reject = (error: ProtocolError): FrameParseResult => ({ ok: false, error, clientEventId })
  const type = raw.type
  if (typeof type !== 'string') {
    return reject(
      raw.type === undefined
        ? protocolError(ERROR_CODES.missingRequiredParameter, 'Missing required parameter: `type`.', 'type')
        : protocolError(ERROR_CODES.invalidValue, 'The event `type` must be a string.', 'type'),
    )
  }
  if (UNSUPPORTED_CLIENT_EVENT_TYPES.has(type)) {
    return reject(
      protocolError(
        ERROR_CODES.unsupportedOffline,
        `The offline GPT-Live server does not implement '${quoted(type)}'.`,
        'type',
      ),
    )
  }
  if (!isSupportedType(type)) {
    return reject(
      protocolError(ERROR_CODES.invalidEvent, `Unknown client event type '${quoted(type)}'.`, 'type'),
    )
  }
  const unsupported = unsupportedFeature(type, raw)
  if (unsupported !== null) return reject(unsupported)
  const immutable = type === 'session.update' ? immutableFieldInUpdate(raw) : null
  if (immutable !== null) return reject(immutable)

  const parsed = clientEventSchemas[type].safeParse(raw)
  if (!parsed.success) return reject(errorFromIssue(parsed.error.issues, raw))
  return { ok: true, event: parsed.data, clientEventId }
}

/** Events whose schema is `{type, event_id?}` and nothing else (mute and unmute come with every step). */
const BODILESS_TYPES: ReadonlySet<string> = new Set([
  'session.input_audio.mute',
  'session.input_audio.unmute',
  'response.create',
  'session.close',
])

/**
 * The fast path for the frames a session sends at every step: an audio append that is exactly
 * `{type, event_id?, audio}` with a string audio, or a body-less event (BODILESS_TYPES) that is exactly
 * `{type, event_id?}`, with a string or null event id, gives the event the schema's parse would give (same
 * keys, same order) without the depth walk and the schema. Anything else, a malformed frame of those types
 * included, returns null and takes the full path, which names the problem.
 */
export function wellFormedFrequentEvent(raw: unknown): ParsedClientEvent | null {
  if (!isRecord(raw) || typeof raw.type !== 'string') return null
  const type = raw.type
  const append = type === 'session.input_audio.append'
  if (!(append ? typeof raw.audio === 'string' : BODILESS_TYPES.has(type))) return null
  let keys = 0
  for (const key in raw) {
    if (key !== 'type' && key !== 'event_id' && !(append && key === 'audio')) return null
    keys++
  }
  const hasEventId = 'event_id' in raw
  const eventId = raw.event_id
  if (hasEventId && typeof eventId !== 'string' && eventId !== null) return null
  if (keys !== 1 + (hasEventId ? 1 : 0) + (append ? 1 : 0)) return null
  const event: Record<string, unknown> = { type }
  if (hasEventId) event.event_id = eventId
  if (append) event.audio = raw.audio
  return event as ParsedClientEvent
}

function fail(error: ProtocolError): FrameParseResult {
  return { ok: false, error, clientEventId: undefined }
}

/** Features that exist in the SDK but that this server deliberately does not fake; refused by name. */
function unsupportedFeature(type: SupportedClientEventType, raw: JsonRecord): ProtocolError | null {
  const offline = (what: string, param: string) =>
    protocolError(
      ERROR_CODES.unsupportedOffline,
      `The offline GPT-Live server does not implement ${what}.`,
      param,
    )
  if (type === 'session.start' || type === 'session.update') {
    const session = raw.session
    if (!isRecord(session)) return null
    if ('triggers' in session) return offline('Decisions triggers', 'session.triggers')
    if (isRecord(session.delegation) && session.delegation.type === 'decisions') {
      return offline('Decisions delegation', 'session.delegation.type')
    }
    const tools =
      isRecord(session.delegation) && isRecord(session.delegation.responses)
        ? session.delegation.responses.tools
        : undefined
    if (Array.isArray(tools)) {
      const shell = tools.findIndex(
        (tool) => isRecord(tool) && tool.type === 'shell' && tool.environment != null,
      )
      if (shell >= 0) {
        return offline('shell tool environments', `session.delegation.responses.tools[${shell}].environment`)
      }
    }
    const format = isRecord(session.audio) && isRecord(session.audio.format) ? session.audio.format : null
    if (format !== null && (format.type === 'audio/pcmu' || format.type === 'audio/pcma')) {
      return offline('G.711 audio (use audio/pcm at 16000 or 24000 Hz)', 'session.audio.format.type')
    }
  }
  if (type === 'response.item.create' && isRecord(raw.item)) {
    const kind = itemKind(raw.item)
    const itemType = raw.item.type ?? null
    if (kind === 'unsupported') {
      return offline(
        itemType === null ? 'item references' : `'${quoted(String(itemType))}' input items`,
        'item.type',
      )
    }
    if (kind === 'invalid') {
      return protocolError(
        ERROR_CODES.invalidValue,
        `Invalid value for 'item.type': ${quoted(JSON.stringify(itemType))} is not a Responses input item type.`,
        'item.type',
      )
    }
  }
  return null
}

function immutableFieldInUpdate(raw: JsonRecord): ProtocolError | null {
  if (!isRecord(raw.session)) return null
  for (const field of IMMUTABLE_SESSION_FIELDS) {
    if (field in raw.session) {
      return protocolError(
        ERROR_CODES.immutableFieldUpdate,
        `The session ${field} cannot change after session startup.`,
        `session.${field}`,
      )
    }
  }
  return null
}

/** `session.audio.format.type`, with `[i]` for array indices. */
function formatParam(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out === '' ? String(key) : `.${String(key)}`
  }
  return out
}

/** Bound on nested unions unwrapped to name a problem (ours are at most two deep). */
const MAX_UNION_UNWRAP = 8

/**
 * A union that failed names the problem of its closest option: the one that did not fail on its `type`
 * (the option the client evidently meant), else the one with the fewest problems. Paths inside a union's
 * options are relative to the union, so the union's own path is prefixed.
 */
function closestIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  let current = issue
  let prefix: PropertyKey[] = []
  for (let depth = 0; depth < MAX_UNION_UNWRAP; depth++) {
    if (current.code !== 'invalid_union' || ('discriminator' in current && current.discriminator)) break
    const options = current.errors.filter((option) => option.length > 0)
    const typeMisses = (option: z.core.$ZodIssue[]) =>
      option.filter((candidate) => candidate.path.length === 1 && candidate.path[0] === 'type').length
    const best = [...options].sort((a, b) => typeMisses(a) - typeMisses(b) || a.length - b.length)[0]
    const next = best?.[0]
    if (next === undefined) break
    prefix = [...prefix, ...current.path]
    current = next
  }
  return prefix.length === 0 ? current : { ...current, path: [...prefix, ...current.path] }
}

function errorFromIssue(issues: readonly z.core.$ZodIssue[], raw: JsonRecord): ProtocolError {
  const first = issues[0]
  if (first === undefined) return protocolError(ERROR_CODES.invalidEvent, 'The event is invalid.')
  const issue = closestIssue(first)
  const path = issue.path
  if (issue.code === 'unrecognized_keys') {
    const param = formatParam([...path, quoted(issue.keys[0] ?? '')])
    return protocolError(ERROR_CODES.unknownParameter, `Unknown parameter: '${param}'.`, param)
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue && typeof issue.discriminator === 'string') {
    // Zod may already end the path at the discriminator key; name it once.
    const at = path.at(-1) === issue.discriminator ? [...path] : [...path, issue.discriminator]
    const param = formatParam(at)
    const value = valueAt(raw, at)
    return protocolError(
      ERROR_CODES.invalidValue,
      `Invalid value for '${param}': ${quoted(JSON.stringify(value) ?? 'undefined')}.`,
      param,
    )
  }
  const param = formatParam(path)
  if (issue.code === 'custom' && issue.params?.serviceCode === MODEL_NOT_FOUND) {
    const model = valueAt(raw, path)
    return protocolError(
      ERROR_CODES.modelNotFound,
      `The model \`${quoted(String(model))}\` does not exist or you do not have access to it.`,
      param,
    )
  }
  if (issue.code === 'invalid_type' && isMissing(raw, path)) {
    return protocolError(
      ERROR_CODES.missingRequiredParameter,
      `Missing required parameter: '${param}'.`,
      param,
    )
  }
  return protocolError(ERROR_CODES.invalidValue, `Invalid value for '${param}': ${issue.message}.`, param)
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as Record<PropertyKey, unknown>)[key]
  }
  return node
}

function isMissing(root: unknown, path: readonly PropertyKey[]): boolean {
  const last = path.at(-1)
  if (last === undefined) return false
  const parent = valueAt(root, path.slice(0, -1))
  return typeof parent === 'object' && parent !== null && !Object.hasOwn(parent, last)
}
