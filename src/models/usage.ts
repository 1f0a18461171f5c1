// Usage of evaluator-side model calls, recorded as events with their source. These tokens are the evaluation's
// cost, never the assistant's consumption: the source type excludes `assistant_backend`, and the events go to a
// row's details (judge_usage_events), never to the usage records reporting's consumption counts.

import type { ResponseUsage } from 'openai/resources/responses/responses'
import { optionalCount } from '../metrics/counts.ts'
import type { UsageRecord } from '../reporting/consumption.ts'

/** Who spent the tokens: any evaluator-side model, never the assistant under test. */
export type EvaluatorUsageSource = Exclude<UsageRecord['source'], 'assistant_backend'>

export interface ModelUsageEvent {
  source: EvaluatorUsageSource
  /** What the request was for, e.g. `evaluation_judge/task_understanding`. */
  purpose: string
  model: string
  /** Wall time of the call including retries and limiter waits; 0 for a cache hit. */
  latency_ms: number
  /** Requests sent (retries included); 0 for a cache hit. */
  attempts: number
  /** Served from a cache: no request, zero tokens. */
  cached: boolean
  /** Token counts as the API reported them; null when it did not report one. */
  total_tokens: number | null
  input_tokens: number | null
  cached_input_tokens: number | null
  output_tokens: number | null
  reasoning_tokens: number | null
}

/** Usage as the Responses and Decisions APIs report it (the two share the shape), possibly absent. */
export type ReportedUsage = Partial<
  Omit<ResponseUsage, 'input_tokens_details' | 'output_tokens_details'> & {
    input_tokens_details: Partial<ResponseUsage['input_tokens_details']> | null
    output_tokens_details: Partial<ResponseUsage['output_tokens_details']> | null
  }
>

export function usageEvent(
  identity: Pick<ModelUsageEvent, 'source' | 'purpose' | 'model'>,
  measured: { latency_ms: number; attempts: number },
  usage: ReportedUsage | null | undefined,
): ModelUsageEvent {
  return {
    ...identity,
    ...measured,
    cached: false,
    total_tokens: optionalCount(usage?.total_tokens),
    input_tokens: optionalCount(usage?.input_tokens),
    cached_input_tokens: optionalCount(usage?.input_tokens_details?.cached_tokens),
    output_tokens: optionalCount(usage?.output_tokens),
    reasoning_tokens: optionalCount(usage?.output_tokens_details?.reasoning_tokens),
  }
}

/** The event of an answer served from a cache: nothing was sent, so every count is a measured zero. */
export function cachedUsageEvent(
  identity: Pick<ModelUsageEvent, 'source' | 'purpose' | 'model'>,
): ModelUsageEvent {
  return {
    ...identity,
    latency_ms: 0,
    attempts: 0,
    cached: true,
    total_tokens: 0,
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    reasoning_tokens: 0,
  }
}
