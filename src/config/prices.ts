// Prices for the cost of a run, as a settings table: what each unit cost on the day the table was read, and where
// it was read. Logic never holds a price: src/reporting/cost.ts multiplies usage by this table, and a model or unit
// missing from it gives a null (unknown) cost, never 0. A team with its own prices passes a JSON file of the same
// shape (`--prices`), which replaces this table whole.
import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { liveModelFamily } from './live-models.ts'

const price = z.number().finite().nonnegative().nullable()

export const PriceTableSchema = z.strictObject({
  /** The day the prices were read (YYYY-MM-DD): a cost is only as current as its table. */
  read_on: z.iso.date(),
  currency: z.string().min(1),
  /** Where each price was read. */
  sources: z.array(z.string().min(1)),
  /** GPT-Live session duration per minute, by model: active, and standby (inference paused; WebRTC only). */
  voice_per_minute: z.record(z.string().min(1), z.strictObject({ active: price, standby: price })),
  /** Responses models (the delegated backend, the judge) per million tokens. */
  tokens_per_million: z.record(
    z.string().min(1),
    z.strictObject({ input: price, cached_input: price, output: price }),
  ),
})
export type PriceTable = z.infer<typeof PriceTableSchema>

/**
 * Read 2026-12-02 from the GPT-Live model pages. Token prices of the backend and judge models are left out: no
 * OpenAI page for them was read (third-party lists disagree), so their cost is unknown until a team's own table
 * names them.
 */
export const DEFAULT_PRICES: PriceTable = {
  read_on: '2026-12-02',
  currency: 'USD',
  sources: [
    'https://developers.openai.com/api/docs/models/gpt-live-1',
    'https://developers.openai.com/api/docs/models/gpt-live-1.1',
  ],
  voice_per_minute: {
    // Billed per second, silence and backend waits included; no standby state.
    'gpt-live-1': { active: 0.05, standby: null },
    'gpt-live-1.1': { active: 0.05, standby: 0.02 },
  },
  tokens_per_million: {},
}

/** A model's voice prices; a dated snapshot is priced as its model. Null when the table does not name it. */
export function voicePrices(table: PriceTable, model: string): PriceTable['voice_per_minute'][string] | null {
  const own = table.voice_per_minute[model]
  if (own !== undefined) return own
  const family = liveModelFamily(model)
  return family === null ? null : (table.voice_per_minute[family] ?? null)
}

/** A Responses model's token prices; null when the table does not name it. */
export function tokenPrices(
  table: PriceTable,
  model: string,
): PriceTable['tokens_per_million'][string] | null {
  return Object.hasOwn(table.tokens_per_million, model) ? (table.tokens_per_million[model] ?? null) : null
}

/** A price table file (`--prices`), validated; the error names the file and the first bad field. */
export async function loadPriceTable(path: string): Promise<PriceTable> {
  let value: unknown
  try {
    value = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    throw new Error(`Price table ${path} cannot be read as JSON: ${(error as Error).message}`)
  }
  const parsed = PriceTableSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(
      `Price table ${path}: ${issue?.path.join('.') || '(top level)'} ${issue?.message ?? 'is invalid'}`,
    )
  }
  return parsed.data
}
