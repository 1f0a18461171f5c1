// Token and audio consumption of the assistant under test (§4.1 `consumption`). Only what was observed is reported:
// GPT-Live gives the frontend only cumulative audio seconds, so frontend tokens are never inferred from duration,
// and usage of evaluator-side models (judge, observer, simulated caller) is never counted. A token field is
// present only when every backend response reported it: a partial sum would present an undercount as a measurement.

import type { SessionUsage } from 'openai/resources/live/live'
import type { ResponseUsage } from 'openai/resources/responses/responses'
import { optionalCount } from '../metrics/counts.ts'
import type { BackendModelUsage, Consumption } from './result-schema.ts'

/** Modality counts the service may add to a usage breakdown (named as in §4.1); the SDK's types do not list them. */
interface ModalityTokens {
  text_tokens: number
  audio_tokens: number
  image_tokens: number
}

/** Usage as it arrives in nested `response.*` events: fakes and older services may omit any field. */
export type ObservedResponseUsage = Partial<
  Omit<ResponseUsage, 'input_tokens_details' | 'output_tokens_details'> & {
    input_tokens_details: Partial<ResponseUsage['input_tokens_details'] & ModalityTokens>
    output_tokens_details: Partial<
      ResponseUsage['output_tokens_details'] & ModalityTokens & { cached_tokens: number }
    >
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

const INPUT_DETAILS = [
  'cached_tokens',
  'cache_write_tokens',
  'text_tokens',
  'audio_tokens',
  'image_tokens',
] as const
const OUTPUT_DETAILS = [
  'cached_tokens',
  'text_tokens',
  'audio_tokens',
  'image_tokens',
  'reasoning_tokens',
] as const

/** Sum of one field over every response, or undefined unless every response reported it as a count. */
function summedWhenAllObserved(values: readonly unknown[]): number | undefined {
  const counts = values.map(optionalCount)
  if (counts.length === 0 || counts.includes(null)) return undefined
  return (counts as number[]).reduce((sum, value) => sum + value, 0)
}

/** An object of the fully observed fields only, or undefined when none was: unobserved means absent, not 0. */
function observedFields(
  names: readonly string[],
  valuesOf: (name: string) => readonly unknown[],
): Record<string, number> | undefined {
  const entries = names.flatMap((name) => {
    const sum = summedWhenAllObserved(valuesOf(name))
    return sum === undefined ? [] : [[name, sum] as const]
  })
  return entries.length === 0 ? undefined : Object.fromEntries(entries)
}

const detail = (details: object | undefined, name: string): unknown =>
  details === undefined ? undefined : (details as Record<string, unknown>)[name]

/** One model's share, in the Responses usage names (the reference's `models` entries). */
function modelUsage(model: string, usages: readonly ObservedResponseUsage[]): BackendModelUsage {
  const entry: BackendModelUsage = { model }
  for (const name of ['total_tokens', 'input_tokens', 'output_tokens'] as const) {
    const sum = summedWhenAllObserved(usages.map((usage) => usage[name]))
    if (sum !== undefined) entry[name] = sum
  }
  const input = observedFields(INPUT_DETAILS, (name) =>
    usages.map((u) => detail(u.input_tokens_details, name)),
  )
  if (input !== undefined) entry.input_tokens_details = input
  const output = observedFields(OUTPUT_DETAILS, (name) =>
    usages.map((u) => detail(u.output_tokens_details, name)),
  )
  if (output !== undefined) entry.output_tokens_details = output
  return entry
}

/** `{total_tokens, ...details}` of one direction; undefined when nothing of it was observed. */
function direction(
  totalTokens: number | undefined,
  details: Record<string, number> | undefined,
): Record<string, number> | undefined {
  if (totalTokens === undefined && details === undefined) return undefined
  return { ...(totalTokens === undefined ? {} : { total_tokens: totalTokens }), ...details }
}

/** The same sums as a model's share, in the row's own shape: `input` and `output` each carry their total. */
function backendTotals(usages: readonly ObservedResponseUsage[]): Consumption['backend'] {
  const totals = modelUsage('all', usages)
  const backend: Consumption['backend'] = {}
  if (totals.total_tokens !== undefined) backend.total_tokens = totals.total_tokens
  const input = direction(totals.input_tokens, totals.input_tokens_details)
  if (input !== undefined) backend.input = input
  const output = direction(totals.output_tokens, totals.output_tokens_details)
  if (output !== undefined) backend.output = output
  return backend
}

export function buildConsumption(input: ConsumptionInput): Consumption {
  const frontend: Consumption['frontend'] = {}
  const seconds = input.frontend_usage?.seconds
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) {
    frontend.audio_duration_ms = Math.round(seconds * 1000)
  }

  const backendRecords = input.usage_records.filter((record) => record.source === 'assistant_backend')
  const backend = backendTotals(backendRecords.map((record) => record.usage))
  const byModel = new Map<string, ObservedResponseUsage[]>()
  for (const record of backendRecords) {
    if (record.model === null) continue
    byModel.set(record.model, [...(byModel.get(record.model) ?? []), record.usage])
  }
  if (byModel.size > 1) backend.models = [...byModel].map(([model, usages]) => modelUsage(model, usages))
  return { frontend, backend }
}

/**
 * The assistant backend's usage per response as usage records of `model`; a response whose usage is unknown adds
 * no record (its tokens were not observed, so they are not counted as zero either).
 */
export function assistantBackendUsageRecords(
  usages: readonly (ObservedResponseUsage | null)[],
  model: string,
): UsageRecord[] {
  return usages.flatMap((usage) =>
    usage === null ? [] : [{ source: 'assistant_backend' as const, model, usage }],
  )
}
