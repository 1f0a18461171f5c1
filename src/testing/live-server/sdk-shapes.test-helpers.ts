// Runtime shape checks of what the offline server sends, against the openai SDK's own types. Sending is typed
// (events.ts: every outbound event is a `ServerEvent`), but types vanish at run time and `response.event`
// carries its nested Responses event as an untyped record; these checks read recorded frames and say, per
// field path, where one leaves the SDK's shape: a required key missing, or a key the SDK type does not have.
// Each key list below is checked against the SDK type at compile time (`exact`), so the lists cannot drift.
import type * as Live from 'openai/resources/live/live'
import type * as Responses from 'openai/resources/responses/responses'

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]
type OptionalKeys<T> = Exclude<keyof T, RequiredKeys<T>>
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/** Where a nested value's shape comes from: one fixed shape, or one chosen by the value (its `type`). */
type NestedShape = Shape | ((value: Record<string, unknown>) => Shape | string)

export interface Shape {
  name: string
  required: readonly string[]
  optional: readonly string[]
  nested: Readonly<Record<string, NestedShape>>
  /** Array fields whose elements each have this shape. */
  elements: Readonly<Record<string, NestedShape>>
}

/** A shape for SDK type `T`; `exact` only type-checks as `true` when the key lists are exactly T's keys. */
function shapeOf<T>(name: string) {
  return <const Req extends readonly RequiredKeys<T>[], const Opt extends readonly OptionalKeys<T>[]>(
    required: Req,
    optional: Opt,
    exact: Same<Req[number], RequiredKeys<T>> extends true
      ? Same<Opt[number], OptionalKeys<T>> extends true
        ? true
        : 'the optional keys differ from the SDK type'
      : 'the required keys differ from the SDK type',
    nested: Shape['nested'] = {},
    elements: Shape['elements'] = {},
  ): Shape => {
    void exact
    return {
      name,
      required: required as readonly string[],
      optional: optional as readonly string[],
      nested,
      elements,
    }
  }
}

const sessionResource = shapeOf<Live.SessionResource>('SessionResource')(
  ['id', 'expires_at', 'model', 'status'],
  ['audio', 'client', 'delegation', 'input', 'instructions', 'safety_identifier', 'store', 'triggers'],
  true,
)
const errorBody = shapeOf<Live.ErrorEvent['error']>('ErrorEvent.error')(
  ['code', 'message', 'type'],
  ['client_event_id', 'param'],
  true,
)
const delegation = shapeOf<Live.DelegationCreatedEvent['delegation']>('DelegationCreatedEvent.delegation')(
  ['id', 'target', 'type'],
  ['response_id'],
  true,
)
const usage = shapeOf<Live.SessionUsageUpdatedEvent['usage']>('usage')(['seconds'], [], true)

const responseUsage = shapeOf<Responses.ResponseUsage>('ResponseUsage')(
  ['input_tokens', 'input_tokens_details', 'output_tokens', 'output_tokens_details', 'total_tokens'],
  [],
  true,
)
const response = shapeOf<Responses.Response>('Response')(
  [
    'id',
    'access_programs',
    'output_text',
    'created_at',
    'error',
    'incomplete_details',
    'instructions',
    'metadata',
    'model',
    'object',
    'output',
    'parallel_tool_calls',
    'temperature',
    'tool_choice',
    'tools',
    'top_p',
  ],
  [
    'background',
    'completed_at',
    'conversation',
    'image',
    'input_transformations',
    'max_output_tokens',
    'max_tool_calls',
    'moderation',
    'previous_response_id',
    'prompt',
    'prompt_cache_diagnostics',
    'prompt_cache_key',
    'prompt_cache_options',
    'prompt_cache_retention',
    'reasoning',
    'safety_identifier',
    'service_tier',
    'status',
    'text',
    'tool_usage',
    'top_logprobs',
    'truncation',
    'usage',
    'user',
  ],
  true,
  { usage: responseUsage },
)
const outputText = shapeOf<Responses.ResponseOutputText>('ResponseOutputText')(
  ['annotations', 'text', 'type'],
  ['logprobs'],
  true,
)
const functionCall = shapeOf<Responses.ResponseFunctionToolCall>('ResponseFunctionToolCall')(
  ['arguments', 'call_id', 'name', 'type'],
  ['id', 'async', 'caller', 'namespace', 'status'],
  true,
)
const outputMessage = shapeOf<Responses.ResponseOutputMessage>('ResponseOutputMessage')(
  ['id', 'content', 'role', 'status', 'type'],
  ['phase'],
  true,
  {},
  { content: outputText },
)
const outputItem = (item: Record<string, unknown>): Shape | string =>
  item.type === 'function_call'
    ? functionCall
    : item.type === 'message'
      ? outputMessage
      : `an output item of type ${String(item.type)} (no shape here)`

// created, in_progress and completed share their keys; the created event's type stands for all three.
const lifecycle = (type: string) =>
  shapeOf<Responses.ResponseCreatedEvent>(type)(['response', 'sequence_number', 'type'], [], true, {
    response,
  })
const itemEvent = shapeOf<Responses.ResponseOutputItemAddedEvent>('output item event')(
  ['item', 'output_index', 'sequence_number', 'type'],
  [],
  true,
  { item: outputItem },
)
const partEvent = shapeOf<Responses.ResponseContentPartAddedEvent>('content part event')(
  ['content_index', 'item_id', 'output_index', 'part', 'sequence_number', 'type'],
  [],
  true,
  { part: outputText },
)

/** Shapes of the nested Responses events the offline backend streams, by `type`. */
const NESTED_SHAPES: Readonly<Record<string, Shape>> = {
  'response.created': lifecycle('response.created'),
  'response.in_progress': lifecycle('response.in_progress'),
  'response.completed': lifecycle('response.completed'),
  'response.output_item.added': itemEvent,
  'response.output_item.done': shapeOf<Responses.ResponseOutputItemDoneEvent>('output item done')(
    ['item', 'output_index', 'sequence_number', 'type'],
    [],
    true,
    { item: outputItem },
  ),
  'response.function_call_arguments.delta': shapeOf<Responses.ResponseFunctionCallArgumentsDeltaEvent>(
    'arguments delta',
  )(['delta', 'item_id', 'output_index', 'sequence_number', 'type'], [], true),
  'response.function_call_arguments.done': shapeOf<Responses.ResponseFunctionCallArgumentsDoneEvent>(
    'arguments done',
  )(['arguments', 'item_id', 'output_index', 'sequence_number', 'type'], [], true),
  'response.content_part.added': partEvent,
  'response.content_part.done': shapeOf<Responses.ResponseContentPartDoneEvent>('content part done')(
    ['content_index', 'item_id', 'output_index', 'part', 'sequence_number', 'type'],
    [],
    true,
    { part: outputText },
  ),
  'response.output_text.delta': shapeOf<Responses.ResponseTextDeltaEvent>('text delta')(
    ['content_index', 'delta', 'item_id', 'logprobs', 'output_index', 'sequence_number', 'type'],
    [],
    true,
  ),
  'response.output_text.done': shapeOf<Responses.ResponseTextDoneEvent>('text done')(
    ['content_index', 'item_id', 'logprobs', 'output_index', 'sequence_number', 'text', 'type'],
    [],
    true,
  ),
}
const nestedEvent = (event: Record<string, unknown>): Shape | string =>
  NESTED_SHAPES[String(event.type)] ?? `a nested event of type ${String(event.type)} (no shape here)`

const transcript = shapeOf<Live.InputTranscriptDeltaEvent>('transcript delta')(
  ['delta', 'end_ms', 'event_id', 'start_ms', 'type'],
  ['client_event_id'],
  true,
)
const ack = shapeOf<Live.InputAudioMutedEvent>('mute ack')(['event_id', 'type'], ['client_event_id'], true)

/** Every server event type the offline server emits, with its SDK shape. */
export const SERVER_EVENT_SHAPES: Readonly<Record<string, Shape>> = {
  'session.started': shapeOf<Live.SessionStartedEvent>('SessionStartedEvent')(
    ['event_id', 'session', 'type'],
    ['client_event_id'],
    true,
    { session: sessionResource },
  ),
  'session.updated': shapeOf<Live.SessionUpdatedEvent>('SessionUpdatedEvent')(
    ['event_id', 'session', 'type'],
    ['client_event_id'],
    true,
    { session: sessionResource },
  ),
  'session.input_audio.muted': ack,
  'session.input_audio.unmuted': shapeOf<Live.InputAudioUnmutedEvent>('unmute ack')(
    ['event_id', 'type'],
    ['client_event_id'],
    true,
  ),
  'session.instructions.appended': shapeOf<Live.InstructionsAppendedEvent>('InstructionsAppendedEvent')(
    ['end_ms', 'event_id', 'start_ms', 'type'],
    ['client_event_id'],
    true,
  ),
  'session.thinking.appended': shapeOf<Live.ThinkingAppendedEvent>('ThinkingAppendedEvent')(
    ['end_ms', 'event_id', 'start_ms', 'type'],
    ['client_event_id'],
    true,
  ),
  'session.commentary.appended': shapeOf<Live.CommentaryAppendedEvent>('CommentaryAppendedEvent')(
    ['end_ms', 'event_id', 'start_ms', 'type'],
    ['client_event_id'],
    true,
  ),
  // No event_id on output audio, as on the service; start_ms/end_ms only on sideband reflections.
  'session.output_audio.delta': shapeOf<Live.OutputAudioDeltaEvent>('OutputAudioDeltaEvent')(
    ['delta', 'type'],
    ['end_ms', 'start_ms'],
    true,
  ),
  'session.input_transcript.delta': transcript,
  'session.output_transcript.delta': shapeOf<Live.OutputTranscriptDeltaEvent>('output transcript delta')(
    ['delta', 'end_ms', 'event_id', 'start_ms', 'type'],
    ['client_event_id'],
    true,
  ),
  'session.delegation.created': shapeOf<Live.DelegationCreatedEvent>('DelegationCreatedEvent')(
    ['delegation', 'event_id', 'offset_ms', 'type'],
    ['client_event_id'],
    true,
    { delegation },
  ),
  'response.event': shapeOf<Live.ResponseEvent>('ResponseEvent')(
    ['event', 'event_id', 'type'],
    ['client_event_id', 'delegation_id'],
    true,
    { event: nestedEvent },
  ),
  'session.usage.updated': shapeOf<Live.SessionUsageUpdatedEvent>('SessionUsageUpdatedEvent')(
    ['event_id', 'type', 'usage'],
    ['client_event_id', 'context_window'],
    true,
    { usage },
  ),
  'session.closed': shapeOf<Live.SessionClosedEvent>('SessionClosedEvent')(
    ['event_id', 'reason', 'session', 'type', 'usage'],
    ['client_event_id'],
    true,
    { session: sessionResource, usage },
  ),
  error: shapeOf<Live.ErrorEvent>('ErrorEvent')(['error', 'event_id', 'type'], ['client_event_id'], true, {
    error: errorBody,
  }),
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Where `value` leaves `shape` (paths like `event.response.output_text`); empty when it fits. */
export function shapeProblems(value: unknown, shape: Shape, path: string): string[] {
  if (!isRecord(value)) return [`${path}: expected an object (${shape.name})`]
  const problems: string[] = []
  for (const key of shape.required) {
    if (!Object.hasOwn(value, key)) problems.push(`${path}.${key}: missing (required by ${shape.name})`)
  }
  for (const key of Object.keys(value)) {
    if (!shape.required.includes(key) && !shape.optional.includes(key)) {
      problems.push(`${path}.${key}: not a field of ${shape.name}`)
    }
  }
  const check = (child: unknown, nested: NestedShape, at: string): void => {
    if (!isRecord(child)) {
      problems.push(`${at}: expected an object`)
      return
    }
    const resolved = typeof nested === 'function' ? nested(child) : nested
    if (typeof resolved === 'string') problems.push(`${at}: ${resolved}`)
    else problems.push(...shapeProblems(child, resolved, at))
  }
  for (const [key, nested] of Object.entries(shape.nested)) {
    if (value[key] !== undefined) check(value[key], nested, `${path}.${key}`)
  }
  for (const [key, nested] of Object.entries(shape.elements)) {
    const list = value[key]
    if (!Array.isArray(list)) continue
    for (const [index, element] of list.entries()) check(element, nested, `${path}.${key}[${index}]`)
  }
  return problems
}

/** Problems of one recorded server frame: unknown type, not JSON, or a shape that is not the SDK's. */
export function serverFrameProblems(text: string, index: number): string[] {
  let event: unknown
  try {
    event = JSON.parse(text)
  } catch {
    return [`frame ${index}: not JSON`]
  }
  const type = isRecord(event) ? String(event.type) : '(none)'
  const shape = SERVER_EVENT_SHAPES[type]
  if (shape === undefined) return [`frame ${index}: ${type} is not an event type this check knows`]
  return shapeProblems(event, shape, `frame ${index} (${type})`)
}
