// The reference client backend on the OpenAI Responses API. The application owns the conversation: every
// run appends the handoff as a user message to its own item list and sends the whole list, with
// `store: false` and never `previous_response_id`, so nothing lives on the provider between runs. Reasoning
// survives the replay only as `encrypted_content`, which is why it is requested and required.
import type OpenAI from 'openai'
import type {
  Response,
  ResponseFunctionToolCall,
  ResponseInputItem,
  ResponseOutputItem,
  FunctionTool as ResponsesFunctionTool,
} from 'openai/resources/responses/responses'
import type { ReasoningEffort } from 'openai/resources/shared'
import type { FunctionToolDefinition } from '../../runtime/tool-definitions.ts'
import {
  type ApplicationBackend,
  type ApplicationToolCallback,
  type BackendRunOptions,
  type DelegationHandoff,
  type EmitObservation,
  handoffPrompt,
} from './application-backend.ts'
import { checkFunctionCall } from './function-call.ts'
import { observedStreamEvent } from './openai-observations.ts'
import { callToolObserved } from './tool-callback.ts'

/** Tool rounds one run may take before the backend gives up on the model. */
export const MAX_TOOL_ROUNDS = 8

export class OpenAiBackendError extends Error {
  override name = 'OpenAiBackendError'
}

export interface OpenAiReferenceBackendOptions {
  client: OpenAI
  model: string
  /** The backend prompt with the authorized context; never sent to GPT-Live. */
  instructions: string
  tools: readonly FunctionToolDefinition[]
  reasoningEffort: ReasoningEffort
  maxOutputTokens: number | null
  callTool: ApplicationToolCallback
}

export class OpenAiReferenceBackend implements ApplicationBackend {
  readonly #options: OpenAiReferenceBackendOptions
  readonly #tools: ResponsesFunctionTool[]
  /** The application-owned conversation, replayed whole on every request. */
  readonly #items: ResponseInputItem[] = []
  readonly #completedCallIds = new Set<string>()
  /** Runs are serialized: each starts after the previous one settled. */
  #queue: Promise<unknown> = Promise.resolve()
  #closed = false

  constructor(options: OpenAiReferenceBackendOptions) {
    this.#options = options
    this.#tools = options.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description ?? null,
      parameters: tool.parameters,
      strict: tool.strict ?? false,
    }))
  }

  /** A copy of the owned item list (what the next request will replay). */
  get items(): ResponseInputItem[] {
    return structuredClone(this.#items)
  }

  run(handoff: DelegationHandoff, emit: EmitObservation, options: BackendRunOptions = {}): Promise<string> {
    const run = this.#queue.then(() => this.#run(handoff, emit, options.signal))
    this.#queue = run.catch(() => {})
    return run
  }

  async close(): Promise<void> {
    this.#closed = true
  }

  async #run(
    handoff: DelegationHandoff,
    emit: EmitObservation,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    if (this.#closed)
      throw new OpenAiBackendError('The OpenAI client backend is closed; create one per conversation.')
    this.#items.push({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: handoffPrompt(handoff) }],
    })
    // A failed run keeps the caller's words but drops its half-finished rounds, so the list stays replayable.
    const afterPrompt = this.#items.length
    try {
      for (let round = 1; round <= MAX_TOOL_ROUNDS; round += 1) {
        signal?.throwIfAborted()
        emit({ type: 'client_delegation.context.assembled', round, input_items: this.#items.length })
        const response = await this.#respond(emit, signal)
        requireEncryptedReasoning(response.output)
        this.#items.push(...response.output.map(asInputItem))
        const calls = response.output.filter(
          (item): item is ResponseFunctionToolCall => item.type === 'function_call',
        )
        if (calls.length === 0) return answerText(response.output)
        for (const call of calls) {
          const checked = checkFunctionCall(call, this.#options.tools, this.#completedCallIds)
          const output = await callToolObserved(this.#options.callTool, emit, checked)
          this.#completedCallIds.add(checked.callId)
          this.#items.push({
            type: 'function_call_output',
            call_id: checked.callId,
            output: JSON.stringify(output),
          })
        }
      }
      throw new OpenAiBackendError(`OpenAI Responses backend exceeded ${MAX_TOOL_ROUNDS} tool rounds`)
    } catch (error) {
      this.#items.length = afterPrompt
      throw error
    }
  }

  /** One streamed request over the whole item list; resolves with the completed response. */
  async #respond(emit: EmitObservation, signal: AbortSignal | undefined): Promise<Response> {
    const { client, model, instructions, reasoningEffort, maxOutputTokens } = this.#options
    const stream = await client.responses.create(
      {
        model,
        instructions,
        input: structuredClone(this.#items),
        tools: this.#tools,
        parallel_tool_calls: false,
        reasoning: { effort: reasoningEffort },
        max_output_tokens: maxOutputTokens,
        stream: true,
        store: false,
        include: ['reasoning.encrypted_content'],
      },
      signal === undefined ? {} : { signal },
    )
    let completed: Response | null = null
    for await (const event of stream) {
      if (event.type === 'error') {
        throw new OpenAiBackendError(`OpenAI Responses stream error ${event.code ?? 'without code'}`)
      }
      emit(observedStreamEvent(event))
      if (event.type === 'response.failed' || event.type === 'response.incomplete') {
        throw new OpenAiBackendError(`OpenAI Responses ended ${event.response.status ?? event.type}`)
      }
      if (event.type === 'response.completed') completed = event.response
    }
    if (completed === null)
      throw new OpenAiBackendError('OpenAI Responses stream ended without response.completed')
    return completed
  }
}

function requireEncryptedReasoning(output: readonly ResponseOutputItem[]): void {
  for (const item of output) {
    if (
      item.type === 'reasoning' &&
      (typeof item.encrypted_content !== 'string' || item.encrypted_content === '')
    ) {
      throw new OpenAiBackendError('OpenAI Responses replay requires encrypted reasoning')
    }
  }
}

/** The output items the API returned are valid input items for the replay. */
function asInputItem(item: ResponseOutputItem): ResponseInputItem {
  return structuredClone(item) as ResponseInputItem
}

/** The space-joined output_text parts of the response's messages; blank is an error. */
function answerText(output: readonly ResponseOutputItem[]): string {
  const parts: string[] = []
  for (const item of output) {
    if (item.type !== 'message') continue
    for (const part of item.content) if (part.type === 'output_text') parts.push(part.text)
  }
  const answer = parts.join(' ')
  if (answer.trim() === '') throw new OpenAiBackendError('OpenAI Responses returned no output text')
  return answer
}
