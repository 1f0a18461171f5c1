// `response.item.create` items the offline backend reads: function outputs, and messages in every form the
// SDK's `ResponseInputItem` allows (string or part-list content, `type` omitted, text/image/file parts, an
// assistant output message). Other SDK item types exist but are not modelled here: they are refused by name
// with `unsupported_in_offline_server` (itemTypeProblem), never with a code that would call them invalid.
// Anything that is not an SDK item at all gets the service-looking validation error.
import type { ResponseInputItem, ResponseOutputText } from 'openai/resources/responses/responses'
import { z } from 'zod'

/** Prompt-cache marks are accepted and ignored: the offline backend has no prompt cache. */
const cacheMark = z.strictObject({ mode: z.literal('explicit'), ttl: z.enum(['30m', '12h']).optional() })
const promptCacheBreakpoint = cacheMark.optional()

const inputText = z.strictObject({
  type: z.literal('input_text'),
  text: z.string(),
  prompt_cache_breakpoint: promptCacheBreakpoint,
})
const imageDetail = z.enum(['low', 'high', 'auto', 'original'])
const inputImage = z.strictObject({
  type: z.literal('input_image'),
  detail: imageDetail,
  image_url: z.string().nullable().optional(),
  file_id: z.string().nullable().optional(),
  prompt_cache_breakpoint: promptCacheBreakpoint,
})
const inputFile = z.strictObject({
  type: z.literal('input_file'),
  detail: z.enum(['auto', 'low', 'high']).optional(),
  file_data: z.string().optional(),
  file_id: z.string().nullable().optional(),
  file_url: z.string().optional(),
  filename: z.string().optional(),
  prompt_cache_breakpoint: promptCacheBreakpoint,
})
const inputParts = z.array(z.discriminatedUnion('type', [inputText, inputImage, inputFile]))

/** Function outputs may be part lists too; their image detail is optional there. */
const outputParts = z.array(
  z.discriminatedUnion('type', [
    inputText.extend({ prompt_cache_breakpoint: cacheMark.nullable().optional() }),
    inputImage.extend({
      detail: imageDetail.nullable().optional(),
      prompt_cache_breakpoint: cacheMark.nullable().optional(),
    }),
    inputFile.extend({
      prompt_cache_breakpoint: cacheMark.nullable().optional(),
      file_data: z.string().nullable().optional(),
      file_url: z.string().nullable().optional(),
      filename: z.string().nullable().optional(),
    }),
  ]),
)

const itemStatus = z.enum(['in_progress', 'completed', 'incomplete'])
const phase = z.enum(['commentary', 'final_answer']).nullable().optional()

export const functionCallOutputSchema = z.strictObject({
  type: z.literal('function_call_output'),
  // Optional in the SDK type, but a backend cannot match an output to its call without it.
  call_id: z.string().min(1),
  output: z.union([z.string(), outputParts]),
  id: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  namespace: z.string().nullable().optional(),
  status: itemStatus.nullable().optional(),
})

/** EasyInputMessage: string or part-list content, any role, `type` optional. */
const easyMessage = z.strictObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), inputParts]),
  phase,
})
/** ResponseInputItem.Message: a part list from user, system or developer, with an optional status. */
const inputMessage = z.strictObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'system', 'developer']),
  content: inputParts,
  status: itemStatus.optional(),
})
/** ResponseOutputMessage: an earlier assistant answer given back as input. */
const outputMessage = z.strictObject({
  type: z.literal('message'),
  id: z.string(),
  role: z.literal('assistant'),
  status: itemStatus,
  content: z.array(
    z.discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('output_text'),
        text: z.string(),
        // Citations and logprobs of an earlier answer are carried, not read: any array is taken as given.
        annotations: z.custom<ResponseOutputText['annotations']>(
          Array.isArray,
          'annotations must be an array',
        ),
        logprobs: z
          .custom<NonNullable<ResponseOutputText['logprobs']>>(Array.isArray, 'logprobs must be an array')
          .optional(),
      }),
      z.strictObject({ type: z.literal('refusal'), refusal: z.string() }),
    ]),
  ),
  phase,
})
export const messageItemSchema = z.union([easyMessage, inputMessage, outputMessage])

export type FunctionCallOutputItem = z.infer<typeof functionCallOutputSchema>
export type MessageItem = z.infer<typeof messageItemSchema>

type SdkInputItemType = Exclude<ResponseInputItem['type'], undefined | null>
/** Every item type of the SDK's ResponseInputItem union; those not modelled above are refused by name. */
const SDK_INPUT_ITEM_TYPES = [
  'message',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'web_search_call',
  'function_call',
  'function_call_output',
  'tool_search_call',
  'tool_search_output',
  'additional_tools',
  'configuration_update',
  'reasoning',
  'compaction',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'custom_tool_call_output',
  'custom_tool_call',
  'compaction_trigger',
  'item_reference',
  'program',
  'program_output',
] as const satisfies readonly SdkInputItemType[]
// Compile-time proof the list names every SDK item type (a new SDK type fails typechecking here).
const _everyItemType: Exclude<SdkInputItemType, (typeof SDK_INPUT_ITEM_TYPES)[number]> extends never
  ? true
  : never = true
void _everyItemType

const SDK_ITEM_TYPES: ReadonlySet<string> = new Set(SDK_INPUT_ITEM_TYPES)

/**
 * How the offline server treats an item by its `type`: `function_call_output` or `message` are parsed; an
 * item without `type` is a message when it has a role, else an item reference; other SDK types are
 * 'unsupported'; anything else is 'invalid'.
 */
export function itemKind(
  item: Record<string, unknown>,
): 'function_call_output' | 'message' | 'unsupported' | 'invalid' {
  const type = item.type
  if (type === undefined || type === null) return 'role' in item ? 'message' : 'unsupported'
  if (type === 'function_call_output' || type === 'message') return type
  return typeof type === 'string' && SDK_ITEM_TYPES.has(type) ? 'unsupported' : 'invalid'
}

/** The words a message item carries (text parts, and a file's name), for the backend's usage estimate. */
export function messageText(item: MessageItem): string {
  if (typeof item.content === 'string') return item.content
  return item.content
    .map((part) => {
      if (part.type === 'input_text' || part.type === 'output_text') return part.text
      if (part.type === 'refusal') return part.refusal
      if (part.type === 'input_file') return part.filename ?? ''
      return ''
    })
    .filter((text) => text !== '')
    .join(' ')
}

// Compile-time proof: whatever these schemas accept is an SDK `ResponseInputItem`.
const _itemsMatchSdk = (item: FunctionCallOutputItem | MessageItem): ResponseInputItem => item
void _itemsMatchSdk
