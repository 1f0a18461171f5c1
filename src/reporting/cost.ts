// What a scenario and a run cost, from the usage already recorded: the GPT-Live session's billed seconds (the row's
// frontend consumption), the assistant backend's tokens (the row's backend consumption) and the judge's tokens (the
// details' judge_usage_events), priced by a settings table (src/config/prices.ts). Unknown stays null at every
// step: unknown usage or a missing price gives a null cost, and a total is known only when all its parts are.
// Measured zero usage costs 0 whatever the price. Standby minutes exist only on WebRTC sessions; the harness
// talks to GPT-Live over WebSocket, so they are null (not applicable), never 0.
import { type PriceTable, tokenPrices, voicePrices } from '../config/prices.ts'
import type { ResultItem } from './result-schema.ts'

export interface TokenUse {
  input: number | null
  /** Of the input, how many were served from the prompt cache. */
  cached_input: number | null
  output: number | null
}

export interface CostPart {
  tokens: TokenUse | null
  cost: number | null
}

export interface ScenarioCost {
  voice_active_minutes: number | null
  /** Null: WebSocket sessions have no standby state. */
  voice_standby_minutes: number | null
  voice_cost: number | null
  backend: CostPart
  /** Null tokens when the details (where the judge's usage is kept) could not be read. */
  judge: CostPart
  total_cost: number | null
}

export interface CostContext {
  /** The GPT-Live model of the run (run.configuration.model). */
  live_model: string | null
  /** The backend model the run configured (run.configuration.backend_model). */
  backend_model: string | null
  prices: PriceTable
}

const ZERO: TokenUse = { input: 0, cached_input: 0, output: 0 }
const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null

function sumKnown(values: readonly (number | null)[]): number | null {
  return values.some((value) => value === null)
    ? null
    : (values as number[]).reduce((sum, value) => sum + value, 0)
}

function isZero(tokens: TokenUse): boolean {
  return tokens.input === 0 && tokens.output === 0
}

/** The price of some tokens of one model; null when a count or a needed price is unknown. */
export function tokensCost(tokens: TokenUse | null, prices: PriceTable, model: string | null): number | null {
  if (tokens === null) return null
  if (isZero(tokens)) return 0
  const table = model === null ? null : tokenPrices(prices, model)
  if (table === null || tokens.input === null || tokens.output === null) return null
  const cached = tokens.cached_input ?? 0
  const cachedPrice = cached === 0 ? 0 : table.cached_input
  if (table.input === null || table.output === null || cachedPrice === null) return null
  return ((tokens.input - cached) * table.input + cached * cachedPrice + tokens.output * table.output) / 1e6
}

/** The backend's tokens of a row, per model: a row that never delegated spent none; unreported usage is null. */
function backendUse(
  row: ResultItem,
  context: CostContext,
): { model: string | null; tokens: TokenUse | null }[] {
  const backend = row.metrics.consumption.backend
  if (backend.models !== undefined) {
    return backend.models.map((entry) => ({
      model: entry.model,
      tokens: {
        input: count(entry.input_tokens),
        cached_input: count(entry.input_tokens_details?.cached_tokens) ?? 0,
        output: count(entry.output_tokens),
      },
    }))
  }
  const input = count(backend.input?.total_tokens)
  const output = count(backend.output?.total_tokens)
  if (input === null && output === null) {
    const delegated = row.metrics.task.delegations?.actual ?? null
    return [{ model: context.backend_model, tokens: delegated === 0 ? ZERO : null }]
  }
  return [
    {
      model: context.backend_model,
      tokens: { input, cached_input: count(backend.input?.cached_tokens) ?? 0, output },
    },
  ]
}

function addTokens(parts: readonly (TokenUse | null)[]): TokenUse | null {
  if (parts.some((part) => part === null)) return null
  const known = parts as TokenUse[]
  return {
    input: sumKnown(known.map((part) => part.input)),
    cached_input: sumKnown(known.map((part) => part.cached_input)),
    output: sumKnown(known.map((part) => part.output)),
  }
}

/** The judge's usage events of one row (details.judge_usage_events), by model; null when they are unknown. */
function judgeUse(
  events: readonly unknown[] | null,
): { model: string | null; tokens: TokenUse | null }[] | null {
  if (events === null) return null
  return events
    .filter(
      (event): event is Record<string, unknown> =>
        typeof event === 'object' &&
        event !== null &&
        (event as { source?: unknown }).source === 'evaluation_judge',
    )
    .map((event) => {
      const input = count(event.input_tokens)
      const output = count(event.output_tokens)
      return {
        model: typeof event.model === 'string' ? event.model : null,
        tokens:
          input === null || output === null
            ? null
            : { input, cached_input: count(event.cached_input_tokens) ?? 0, output },
      }
    })
}

function partOf(
  uses: { model: string | null; tokens: TokenUse | null }[] | null,
  prices: PriceTable,
): CostPart {
  if (uses === null) return { tokens: null, cost: null }
  if (uses.length === 0) return { tokens: ZERO, cost: 0 }
  return {
    tokens: addTokens(uses.map((use) => use.tokens)),
    cost: sumKnown(uses.map((use) => tokensCost(use.tokens, prices, use.model))),
  }
}

/**
 * One row's cost.
 * @param judgeEvents the row's details.judge_usage_events; null when the details could not be read
 */
export function scenarioCost(
  row: ResultItem,
  judgeEvents: readonly unknown[] | null,
  context: CostContext,
): ScenarioCost {
  const ms = row.metrics.consumption.frontend.audio_duration_ms
  const minutes = typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms / 60_000 : null
  const voice = context.live_model === null ? null : voicePrices(context.prices, context.live_model)
  const voiceCost =
    minutes === null ? null : minutes === 0 ? 0 : voice?.active == null ? null : minutes * voice.active
  const backend = partOf(backendUse(row, context), context.prices)
  const judge = partOf(judgeUse(judgeEvents), context.prices)
  return {
    voice_active_minutes: minutes,
    voice_standby_minutes: null,
    voice_cost: voiceCost,
    backend,
    judge,
    total_cost: sumKnown([voiceCost, backend.cost, judge.cost]),
  }
}

/** A run's cost: each figure summed over its scenarios, null when any scenario's is unknown. */
export function runCost(costs: readonly ScenarioCost[]): ScenarioCost {
  const part = (pick: (cost: ScenarioCost) => CostPart): CostPart => ({
    tokens: addTokens(costs.map((cost) => pick(cost).tokens)),
    cost: sumKnown(costs.map((cost) => pick(cost).cost)),
  })
  return {
    voice_active_minutes: sumKnown(costs.map((cost) => cost.voice_active_minutes)),
    voice_standby_minutes: costs.some((cost) => cost.voice_standby_minutes !== null)
      ? sumKnown(costs.map((cost) => cost.voice_standby_minutes))
      : null,
    voice_cost: sumKnown(costs.map((cost) => cost.voice_cost)),
    backend: part((cost) => cost.backend),
    judge: part((cost) => cost.judge),
    total_cost: sumKnown(costs.map((cost) => cost.total_cost)),
  }
}

/** The cost context of a results document: its models from run.configuration. */
export function costContextOf(configuration: Record<string, unknown>, prices: PriceTable): CostContext {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)
  return { live_model: text(configuration.model), backend_model: text(configuration.backend_model), prices }
}
