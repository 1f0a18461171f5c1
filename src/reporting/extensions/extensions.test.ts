import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { ReportingError } from '../errors.ts'
import { passingRowInput } from '../reporting-fixtures.ts'
import { buildResultRow, infrastructureErrorRow, validateResultRow } from '../result-item.ts'
import { ResultsDocumentSchema, RunMetadataSchema } from '../result-schema.ts'
import { buildResultsDocument, withRunExtensions } from '../results-document.ts'
import { assistantsOf, withAssistant } from '../row-assistant.ts'
import { defineExtensionFeature, extensionBlockSchema } from './define.ts'
import {
  EXTENSION_VERSION,
  extensionFeatureTable,
  ROW_EXTENSION_FEATURES,
  RowExtensionBlockSchema,
  RUN_EXTENSION_FEATURES,
} from './registry.ts'

const yieldFeature = defineExtensionFeature({
  name: 'yield',
  scope: 'row',
  version: '1.0',
  summary: 'test feature',
  schema: z.strictObject({ count: z.number().int() }),
})

describe('the extension block', () => {
  test('a row with nothing to add stays exactly the reference shape: no block, no observability added', () => {
    const row = buildResultRow(passingRowInput())
    expect(row).not.toHaveProperty('observability')
    const withEmpty = buildResultRow(passingRowInput({ extensions: {} }))
    expect(withEmpty).toEqual(row)
  })
  test('a row feature lands in observability.live_evals with the block version; the reference keys are untouched', () => {
    const plain = buildResultRow(passingRowInput({ observability: { scenario: { id: 'restaurant_001' } } }))
    const row = buildResultRow(
      passingRowInput({ observability: { scenario: { id: 'restaurant_001' } }, extensions: { trial: 3 } }),
    )
    expect(row.observability).toEqual({
      scenario: { id: 'restaurant_001' },
      live_evals: { version: EXTENSION_VERSION, trial: 3 },
    })
    expect(Object.keys(row)).toEqual(Object.keys(plain))
    expect({ ...row, observability: plain.observability }).toEqual(plain)
  })
  test('an infrastructure row can carry the block too (its trial is part of its key)', () => {
    const row = infrastructureErrorRow({
      scenario_id: 'restaurant_002',
      stage: 'connection',
      message: 'refused',
      extensions: { trial: 2 },
    })
    expect(row.observability).toEqual({ live_evals: { version: EXTENSION_VERSION, trial: 2 } })
  })
  test('an invalid feature value makes the row a result_validation row naming the field', () => {
    const row = buildResultRow(passingRowInput({ extensions: { trial: 0 } }))
    expect(row.error?.stage).toBe('result_validation')
    expect(row.error?.message).toContain('observability.live_evals.trial')
  })
  test('a row replaced for another reason keeps its block, so its key survives', () => {
    const row = structuredClone(buildResultRow(passingRowInput({ extensions: { trial: 4 } })))
    row.metrics.task.tool_accuracy = 7
    const replaced = validateResultRow(row)
    expect(replaced.error?.stage).toBe('result_validation')
    expect(replaced.observability).toEqual({ live_evals: { version: EXTENSION_VERSION, trial: 4 } })
  })
  test('a block of another version, or with a key no feature owns, is refused', () => {
    expect(RowExtensionBlockSchema.safeParse({ version: '0.9', trial: 1 }).success).toBe(false)
    const unknown = RowExtensionBlockSchema.safeParse({ version: EXTENSION_VERSION, intervals: [] })
    expect(unknown.success).toBe(false)
    expect(unknown.error?.issues[0]?.message).toContain('intervals')
  })
})

describe('the feature registry', () => {
  test('a feature file contributes its own schema to the block', () => {
    const block = extensionBlockSchema('1.0', 'row', [yieldFeature])
    expect(block.parse({ version: '1.0', yield: { count: 2 } })).toEqual({
      version: '1.0',
      yield: { count: 2 },
    })
    expect(block.parse({ version: '1.0' })).toEqual({ version: '1.0' })
    expect(block.safeParse({ version: '1.0', yield: { count: 'two' } }).success).toBe(false)
  })
  test('a feature registered in the wrong scope, twice, or as "version" is refused when the schema is built', () => {
    expect(() => extensionBlockSchema('1.0', 'run', [yieldFeature])).toThrow(ReportingError)
    expect(() => extensionBlockSchema('1.0', 'run', [yieldFeature])).toThrow('registered for runs')
    expect(() => extensionBlockSchema('1.0', 'row', [yieldFeature, yieldFeature])).toThrow('registered twice')
    const reserved = defineExtensionFeature({ ...yieldFeature, name: 'version' })
    expect(() => extensionBlockSchema('1.0', 'row', [reserved])).toThrow('reserved')
  })
  test('the README table lists the block versions and every registered feature with its version', () => {
    expect(extensionFeatureTable()).toEqual([
      expect.objectContaining({
        place: 'results[].observability.live_evals',
        key: 'version',
        version: '1.0',
      }),
      expect.objectContaining({ place: 'run.configuration.live_evals', key: 'version', version: '1.0' }),
      ...ROW_EXTENSION_FEATURES.map((feature) =>
        expect.objectContaining({
          place: 'results[].observability.live_evals',
          key: feature.name,
          version: feature.version,
        }),
      ),
      ...RUN_EXTENSION_FEATURES.map((feature) =>
        expect.objectContaining({
          place: 'run.configuration.live_evals',
          key: feature.name,
          version: feature.version,
        }),
      ),
    ])
    expect(extensionFeatureTable().map((entry) => entry.key)).toEqual(
      expect.arrayContaining(['trial', 'datasets']),
    )
  })
})

describe('the run block', () => {
  const run = {
    id: 'crawl_offline_20261201_000000_000Z',
    module: 'crawl' as const,
    execution_mode: 'offline_fixture' as const,
    interaction: 'single_turn' as const,
    dataset: '/data/scenarios.json',
    configuration: { audio_source: 'synthetic' },
  }
  test('nothing to add leaves the run metadata as it was', () => {
    expect(withRunExtensions(run, undefined)).toBe(run)
    expect(withRunExtensions(run, {})).toBe(run)
  })
  test('run.configuration.live_evals is validated: a key no run feature owns is refused', () => {
    const parsed = RunMetadataSchema.safeParse({
      ...run,
      configuration: { ...run.configuration, live_evals: { version: EXTENSION_VERSION, pass_k: 1 } },
    })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]?.path).toEqual(['configuration', 'live_evals'])
    // The reference's own configuration keys stay free-form.
    expect(RunMetadataSchema.parse({ ...run, configuration: { anything: [1, 2] } }).configuration).toEqual({
      anything: [1, 2],
    })
  })
})

describe('the assistant under test', () => {
  const run = {
    id: 'crawl_offline_20261201_000000_000Z',
    module: 'crawl' as const,
    execution_mode: 'offline_fixture' as const,
    interaction: 'single_turn' as const,
    dataset: '/data/scenarios.json',
    configuration: { audio_source: 'synthetic' },
  }
  const rowOf = (scenario_id: string, assistant: string | null) =>
    withAssistant(buildResultRow(passingRowInput({ scenario_id })), assistant)

  test('a row names its assistant in observability.live_evals, beside its other features', () => {
    const row = withAssistant(buildResultRow(passingRowInput({ extensions: { trial: 2 } })), 'maple-pharmacy')
    expect(row.observability).toEqual({
      live_evals: { version: EXTENSION_VERSION, trial: 2, assistant: 'maple-pharmacy' },
    })
    expect(validateResultRow(row)).toEqual(row)
    // Unknown stays unknown: no name, no block.
    expect(rowOf('hours', null)).not.toHaveProperty('observability')
    expect(RowExtensionBlockSchema.safeParse({ version: EXTENSION_VERSION, assistant: ' ' }).success).toBe(
      false,
    )
  })
  test('the run lists the distinct assistants of its rows in row order, validated by the results schema', () => {
    const rows = [
      rowOf('refill', 'maple-pharmacy'),
      rowOf('hours', 'juniper-table'),
      rowOf('pharmacy_hours', 'maple-pharmacy'),
    ]
    const document = buildResultsDocument(run, rows, ['refill', 'hours', 'pharmacy_hours'])
    expect(document.run.configuration.live_evals).toEqual({
      version: EXTENSION_VERSION,
      assistants: ['maple-pharmacy', 'juniper-table'],
    })
    expect(ResultsDocumentSchema.parse(JSON.parse(JSON.stringify(document)))).toEqual(document)
    expect(document.results.map((row) => row.observability?.live_evals?.assistant)).toEqual([
      'maple-pharmacy',
      'juniper-table',
      'maple-pharmacy',
    ])
  })
  test('rows that name no assistant give the run no list (a rebuilt document drops a stale one)', () => {
    const stale = withRunExtensions(run, { assistants: ['someone-else'] })
    const document = buildResultsDocument(stale, [rowOf('hours', null)], ['hours'])
    expect(document.run.configuration).not.toHaveProperty('live_evals')
    expect(assistantsOf([rowOf('hours', null)])).toBeNull()
    expect(RunMetadataSchema.safeParse(withRunExtensions(run, { assistants: [] })).success).toBe(false)
  })
})
