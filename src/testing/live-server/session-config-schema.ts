// Strict zod schemas for the configuration a client sends in `session.start` and `session.update`. Like the
// service, unknown fields are rejected. The parsed shapes are checked against the openai SDK's GPT-Live types
// at the bottom of this file, so a schema that drifts from the SDK fails typechecking instead of the wire.
import type { SessionConfig, SessionUpdateConfig } from 'openai/resources/live/live'
import { z } from 'zod'
import { liveModelFamily } from '../../config/live-models.ts'
import { estimatedTokens } from '../estimated-usage.ts'

/** The service counts tokens with a tokenizer it does not publish; like other fakes we estimate 4 chars/token. */
export const MAX_INSTRUCTIONS_TOKENS = 16_384
export const MAX_INPUT_MESSAGES = 128
export const MAX_INPUT_TOKENS = 8_192

export const audioFormatSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('audio/pcm'), rate: z.union([z.literal(16_000), z.literal(24_000)]) }),
  z.strictObject({ type: z.literal('audio/pcmu'), rate: z.literal(8_000) }),
  z.strictObject({ type: z.literal('audio/pcma'), rate: z.literal(8_000) }),
])
export type OfflineAudioFormat = z.infer<typeof audioFormatSchema>

const voiceSchema = z.union([z.string().min(1), z.strictObject({ id: z.string().min(1) })])

const audioSchema = z.strictObject({
  format: audioFormatSchema.optional(),
  output: z.strictObject({ voice: voiceSchema.optional() }).optional(),
})

const itemStatus = z.enum(['incomplete', 'completed']).nullable().optional()
const inputTextPart = z.strictObject({ type: z.literal('input_text').optional(), text: z.string() })
const initialItemSchema = z.discriminatedUnion('role', [
  z.strictObject({
    type: z.literal('message').optional(),
    role: z.literal('developer'),
    content: z.array(inputTextPart).length(1),
    id: z.string().nullable().optional(),
    status: itemStatus,
  }),
  z.strictObject({
    type: z.literal('message').optional(),
    role: z.literal('user'),
    content: z.array(inputTextPart).length(1),
    id: z.string().nullable().optional(),
    status: itemStatus,
  }),
  z.strictObject({
    type: z.literal('message').optional(),
    role: z.literal('assistant'),
    content: z
      .array(
        z.union([
          z.strictObject({ type: z.literal('text').optional(), text: z.string() }),
          z.strictObject({ type: z.literal('output_text'), text: z.string() }),
        ]),
      )
      .length(1),
    id: z.string().nullable().optional(),
    status: itemStatus,
  }),
])

const functionToolSchema = z.strictObject({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullable().optional(),
  parameters: z.record(z.string(), z.unknown()).nullable().optional(),
  strict: z.boolean().nullable().optional(),
})
/**
 * Tool types the SDK lists for a Responses backend besides functions. The guides promise only function tools
 * and web search; the offline backend only ever calls function tools, but it accepts every SDK tool type as
 * configuration (echoed in session snapshots, never invoked), so a config valid for the service starts here.
 */
const HOSTED_TOOL_TYPES = [
  'web_search',
  'file_search',
  'code_interpreter',
  'image_generation',
  'mcp',
  'custom',
  'namespace',
  'tool_search',
  'programmatic_tool_calling',
  'computer',
  'apply_patch',
] as const
// A shell tool's `environment` (containers, skills, network policy) is refused by validation.ts as not
// modelled offline; here the key is only allowed to be absent or null.
const shellToolSchema = z.strictObject({ type: z.literal('shell'), environment: z.null().optional() })
const toolSchema = z.union([
  functionToolSchema,
  shellToolSchema,
  z.strictObject({ type: z.enum(HOSTED_TOOL_TYPES) }),
])

type SdkToolType =
  NonNullable<SessionConfig['delegation']> extends infer D
    ? D extends { type: 'responses'; responses: { tools?: Array<infer Tool> } }
      ? Tool extends { type: infer T }
        ? T
        : never
      : never
    : never
// Compile-time proof the accepted tool types are exactly the SDK's (a new SDK tool type fails here).
const _everyToolType: [
  Exclude<SdkToolType, (typeof HOSTED_TOOL_TYPES)[number] | 'function' | 'shell'>,
  Exclude<(typeof HOSTED_TOOL_TYPES)[number], SdkToolType>,
] extends [never, never]
  ? true
  : never = true
void _everyToolType

const hostedToolChoiceTypes = [
  'file_search',
  'web_search',
  'web_search_preview',
  'image_generation',
  'computer',
  'code_interpreter',
  'programmatic_tool_calling',
  'shell',
  'apply_patch',
] as const
const namedToolChoice = z.union([
  z.strictObject({ type: z.literal('function'), name: z.string().min(1) }),
  z.strictObject({ type: z.literal('custom'), name: z.string().min(1) }),
  z.strictObject({ type: z.literal('mcp'), name: z.string().min(1), server_label: z.string().min(1) }),
  z.strictObject({ type: z.enum(hostedToolChoiceTypes) }),
])
const toolChoiceSchema = z.union([
  z.enum(['auto', 'none', 'required']),
  namedToolChoice,
  z.strictObject({
    type: z.literal('allowed_tools'),
    tools: z.array(namedToolChoice),
    mode: z.enum(['none', 'auto', 'required']).nullable().optional(),
  }),
])

const responsesSettings = {
  instructions: z.string().nullable().optional(),
  max_output_tokens: z.number().int().min(16).nullable().optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  reasoning: z
    .strictObject({
      effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullable().optional(),
      summary: z.enum(['concise', 'detailed', 'auto']).nullable().optional(),
    })
    .nullable()
    .optional(),
  service_tier: z
    .enum(['auto', 'default', 'fast_tier_temp_pilot', 'flex', 'priority', 'ultrafast'])
    .nullable()
    .optional(),
  text: z
    .strictObject({ verbosity: z.enum(['low', 'medium', 'high']).nullable().optional() })
    .nullable()
    .optional(),
  tool_choice: toolChoiceSchema.optional(),
  tools: z.array(toolSchema).optional(),
}

export const responsesDelegationConfigSchema = z.strictObject({
  model: z.string().min(1),
  ...responsesSettings,
})
export const responsesDelegationUpdateSchema = z.strictObject({
  model: z.string().min(1).optional(),
  ...responsesSettings,
})

const acknowledgementDelay = z.number().int().min(0).optional()

const delegationSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('client'), acknowledgement_delay_ms: acknowledgementDelay }),
    z.strictObject({
      type: z.literal('responses'),
      responses: responsesDelegationConfigSchema,
      acknowledgement_delay_ms: acknowledgementDelay,
    }),
  ])
  .nullable()

const dataChannelSchema = z.strictObject({
  allowed_client_events: z.union([z.literal('all'), z.array(z.string())]).optional(),
  allowed_server_events: z
    .union([
      z.literal('all'),
      z.array(z.strictObject({ type: z.string().min(1), response_event: z.string().min(1).optional() })),
    ])
    .optional(),
})

/** What the service answers for a model id it does not serve (validation.ts turns the issue into its error). */
export const MODEL_NOT_FOUND = 'model_not_found'

/**
 * A GPT-Live model id or one of its dated snapshots (src/config/live-models.ts); anything else is refused as the
 * service refuses an unknown model, before the session starts.
 */
const liveModelSchema = z
  .string()
  .min(1)
  .refine((id) => liveModelFamily(id) !== null, { params: { serviceCode: MODEL_NOT_FOUND } })

export const sessionConfigSchema = z.strictObject({
  model: liveModelSchema,
  instructions: z
    .string()
    .nullable()
    .optional()
    .refine((text) => text == null || estimatedTokens(text) <= MAX_INSTRUCTIONS_TOKENS, {
      message: `instructions exceed ${MAX_INSTRUCTIONS_TOKENS} tokens`,
    }),
  audio: audioSchema.optional(),
  delegation: delegationSchema.optional(),
  input: z
    .array(initialItemSchema)
    .max(MAX_INPUT_MESSAGES)
    .optional()
    .refine(
      (items) =>
        items === undefined ||
        items.reduce((sum, item) => sum + estimatedTokens(item.content[0]?.text ?? ''), 0) <=
          MAX_INPUT_TOKENS,
      { message: `input exceeds ${MAX_INPUT_TOKENS} rendered tokens` },
    ),
  store: z.boolean().optional(),
  client: z.strictObject({ data_channel: dataChannelSchema }).optional(),
  safety_identifier: z.string().nullable().optional(),
})
export type ParsedSessionConfig = z.infer<typeof sessionConfigSchema>

export const sessionUpdateConfigSchema = z.strictObject({
  delegation: z
    .discriminatedUnion('type', [
      z.strictObject({ type: z.literal('client'), acknowledgement_delay_ms: acknowledgementDelay }),
      z.strictObject({
        type: z.literal('responses'),
        responses: responsesDelegationUpdateSchema.optional(),
        acknowledgement_delay_ms: acknowledgementDelay,
      }),
    ])
    .nullable()
    .optional(),
})
export type ParsedSessionUpdateConfig = z.infer<typeof sessionUpdateConfigSchema>

/** Session fields that exist at startup but can never be changed by `session.update`. */
export const IMMUTABLE_SESSION_FIELDS = [
  'model',
  'instructions',
  'audio',
  'input',
  'store',
  'client',
  'safety_identifier',
] as const

// Compile-time proof that what we accept is what the SDK types describe (assignability, field by field).
const _configMatchesSdk = (parsed: ParsedSessionConfig): SessionConfig => parsed
const _updateMatchesSdk = (parsed: ParsedSessionUpdateConfig): SessionUpdateConfig => parsed
void _configMatchesSdk
void _updateMatchesSdk
