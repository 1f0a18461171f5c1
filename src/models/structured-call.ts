// One typed, structured Responses call: a zod schema is the text format (`responses.parse` + `zodTextFormat`), the
// request is never stored, and the answer is the schema's value or a ModelCallError "no structured decision".

import { zodTextFormat } from 'openai/helpers/zod'
import type { ResponseInput, ResponseTextConfig } from 'openai/resources/responses/responses'
import type { ReasoningEffort } from 'openai/resources/shared'
import type { z } from 'zod'
import { type ModelCallSettings, runModelCall } from './call-runner.ts'
import { ModelCallError } from './errors.ts'
import { type ModelUsageEvent, usageEvent } from './usage.ts'

export interface StructuredCallRequest<Schema extends z.ZodType> extends ModelCallSettings {
  schema: Schema
  /** The schema's name as the model sees it (letters, digits, `_` and `-`). */
  schemaName: string
  input: ResponseInput
  /** Null or absent leaves the model's default. */
  reasoningEffort?: ReasoningEffort | undefined
  maxOutputTokens?: number | undefined
  /** The answer's verbosity (`text.verbosity`); absent leaves the model's default. */
  verbosity?: ResponseTextConfig['verbosity'] | undefined
}

export interface StructuredCallResult<Value> {
  value: Value
  usage: ModelUsageEvent
  response_id: string
}

export async function callStructured<Schema extends z.ZodType>(
  request: StructuredCallRequest<Schema>,
): Promise<StructuredCallResult<z.infer<Schema>>> {
  const body = {
    model: request.model,
    input: request.input,
    store: false,
    text: {
      format: zodTextFormat(request.schema, request.schemaName),
      ...(request.verbosity == null ? {} : { verbosity: request.verbosity }),
    },
    ...(request.reasoningEffort == null ? {} : { reasoning: { effort: request.reasoningEffort } }),
    ...(request.maxOutputTokens === undefined ? {} : { max_output_tokens: request.maxOutputTokens }),
  }
  const ran = await runModelCall(request, (options) => request.client.responses.parse(body, options))
  const response = ran.value
  const usage = usageEvent(
    { source: request.source, purpose: request.purpose, model: request.model },
    { latency_ms: ran.latency_ms, attempts: ran.attempts },
    response.usage,
  )
  if (response.output_parsed === null || response.output_parsed === undefined) {
    throw new ModelCallError('no_structured_decision', whyNothingParsed(response), {
      model: request.model,
      purpose: request.purpose,
      attempts: ran.attempts,
    })
  }
  return { value: response.output_parsed as z.infer<Schema>, usage, response_id: response.id }
}

type ParsedOutput = Awaited<ReturnType<ModelCallSettings['client']['responses']['parse']>>

function whyNothingParsed(response: ParsedOutput): string {
  if (response.status !== undefined && response.status !== 'completed') {
    const reason = response.incomplete_details?.reason ?? response.error?.message
    return `the response ended ${response.status}${reason ? ` (${reason})` : ''}`
  }
  for (const item of response.output) {
    if (item.type !== 'message') continue
    for (const part of item.content) if (part.type === 'refusal') return `the model refused: ${part.refusal}`
  }
  return 'the response held no output text'
}
