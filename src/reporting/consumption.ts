// Token and audio consumption of the assistant under test (§4.1 `consumption`). Only what was observed is reported:
// GPT-Live gives the frontend only cumulative audio seconds, so frontend tokens are never inferred from duration,
// and usage of evaluator-side models (judge, observer, simulated caller) is never counted.

import type { SessionUsage } from 'openai/resources/live/live'
import type { ResponseUsage } from 'openai/resources/responses/responses'
import { optionalCount } from '../metrics/counts.ts'
import type { Consumption } from './result-schema.ts'

/** Usage as it arrives in nested `response.*` events: fakes and older services may omit any field. */
export type ObservedResponseUsage = Partial<
  Omit<ResponseUsage, 'input_tokens_details' | 'output_tokens_details'> & {
    input_tokens_details: Partial<ResponseUsage['input_tokens_details']>
    output_tokens_details: Partial<ResponseUsage['output_tokens_details']>
  }
>

export interface UsageRecord {
  /** Who spent the tokens; only `assistant_backend` is the assistant under test. */
  source: 'assistant_backend' | 'evaluation_judge' | 'completion_observer' | 'caller_simulation'
  model: string | null
  usage: ObservedResponseUsage
}

export interface ConsumptionInput {
  /** The latest cumulative Live usage (from `session.closed`, else the last `session.usage.updated`); null if none. */
  frontend_usage: SessionUsage | null
  usage_records: readonly UsageRecord[]
}

/**
 * Sum of one field over every backend response, or undefined unless every response reported it: a partial sum
 * would present an undercount as a measurement.
 */
function summedWhenAllObserved(values: readonly unknown[]): number | undefined {
  const counts = values.map(optionalCount)
  if (counts.length === 0 || counts.includes(null)) return undefined
  return (counts as number[]).reduce((sum, value) => sum + value, 0)
}

/** Builds an object from the defined entries only, so unobserved fields are absent rather than null. */
function observedFields<T extends Record<string, number | undefined>>(
  fields: T,
): Partial<Record<keyof T, number>> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<
    Record<keyof T, number>
  >
}

function nonEmpty<T extends object>(value: T): T | undefined {
  return Object.keys(value).length > 0 ? value : undefined
}

export function buildConsumption(input: ConsumptionInput): Consumption {
  const frontend: Consumption['frontend'] = {}
  const seconds = input.frontend_usage?.seconds
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) {
    frontend.audio_duration_ms = Math.round(seconds * 1000)
  }

  const backendUsages = input.usage_records.filter((record) => record.source === 'assistant_backend')
  const usages = backendUsages.map((record) => record.usage)
  const backend: Consumption['backend'] = {}
  const total = summedWhenAllObserved(usages.map((usage) => usage.total_tokens))
  if (total !== undefined) backend.total_tokens = total
  const backendInput = nonEmpty(
    observedFields({
      total_tokens: summedWhenAllObserved(usages.map((usage) => usage.input_tokens)),
      cached_tokens: summedWhenAllObserved(usages.map((usage) => usage.input_tokens_details?.cached_tokens)),
      cache_write_tokens: summedWhenAllObserved(
        usages.map((usage) => usage.input_tokens_details?.cache_write_tokens),
      ),
    }),
  )
  if (backendInput !== undefined) backend.input = backendInput
  const backendOutput = nonEmpty(
    observedFields({
      total_tokens: summedWhenAllObserved(usages.map((usage) => usage.output_tokens)),
      reasoning_tokens: summedWhenAllObserved(
        usages.map((usage) => usage.output_tokens_details?.reasoning_tokens),
      ),
    }),
  )
  if (backendOutput !== undefined) backend.output = backendOutput
  const models = [
    ...new Set(backendUsages.flatMap((record) => (record.model === null ? [] : [record.model]))),
  ]
  if (models.length > 1) backend.models = models
  return { frontend, backend }
}
