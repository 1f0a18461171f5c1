import { describe, expect, test } from 'vitest'
import { ResultsFileError } from './errors.ts'
import {
  referenceDocument,
  referenceFailedCrawlRow,
  referenceRunRow,
  referenceTwoModelRow,
} from './reference-results.test-helpers.ts'
import { passingRowInput } from './reporting-fixtures.ts'
import { buildResultRow } from './result-item.ts'
import type { RunMetadata } from './result-schema.ts'
import { buildResultsDocument } from './results-document.ts'
import { parseResultsDocument } from './results-file.ts'

const source = '/runs/bistro/results.json'

// biome-ignore lint/suspicious/noExplicitAny: the tests reach into reference-shaped JSON to break one field at a time
type Mutable = Record<string, any>

function refusal(input: unknown): ResultsFileError {
  try {
    parseResultsDocument(input, { source })
  } catch (error) {
    if (error instanceof ResultsFileError) return error
    throw error
  }
  throw new Error('the document was accepted')
}

describe('reading the reference toolkit results.json', () => {
  test('a RUN row without input/output audio artifacts parses, the missing keys read as null', () => {
    const file = referenceDocument([referenceRunRow()])
    const snapshot = structuredClone(file)
    const document = parseResultsDocument(JSON.stringify(file), { source })
    const row = document.results[0]
    expect(row?.artifacts).toEqual({
      input_audio: null,
      output_audio: null,
      conversation_audio: 'audio/bistro_move_booking/conversation.wav',
      conversation_transcript: 'audio/bistro_move_booking/conversation.transcript.txt',
      events: 'events/bistro_move_booking.jsonl',
      details: 'audio/bistro_move_booking/conversation.result.json',
    })
    // Everything else reads exactly as written.
    const { artifacts: _read, ...rest } = row as Mutable
    const { artifacts: _written, ...written } = (snapshot.results as Mutable[])[0] as Mutable
    expect(rest).toEqual(written)
    expect(document.run).toEqual(snapshot.run)
    expect(file).toEqual(snapshot)
  })
  test('a failure row with five null audio metrics, no policy fields and two artifacts parses', () => {
    const document = parseResultsDocument(referenceDocument([referenceFailedCrawlRow()]), { source })
    const row = document.results[0]
    expect(row?.metrics.audio).toEqual({
      response_rate: null,
      response_latency_ms: null,
      interruption_rate: null,
      speaking_duration_ms: null,
      floor_hold_silence_ms: null,
    })
    expect(row?.artifacts).toMatchObject({ input_audio: 'audio/bistro_hours/input.wav', output_audio: null })
    expect(document.summary.infrastructure_errors).toBe(1)
  })
  test('an artifacts object with nothing in it (the reference writes {} when no file exists) reads as all null', () => {
    const row = referenceFailedCrawlRow()
    row.artifacts = {}
    const document = parseResultsDocument(referenceDocument([row]), { source })
    expect(Object.values(document.results[0]?.artifacts ?? {})).toEqual([null, null, null, null, null, null])
  })
  test('per-model backend usage and modality token counts are kept', () => {
    const document = parseResultsDocument(referenceDocument([referenceTwoModelRow()]), { source })
    const backend = document.results[0]?.metrics.consumption.backend
    expect(backend?.models?.map((entry) => entry.model)).toEqual(['gpt-5.6-terra', 'gpt-5.6-luna'])
    expect(backend?.input?.text_tokens).toBe(61)
  })
  test('what we write reads back unchanged, as text or as a value', () => {
    const run: RunMetadata = {
      id: 'crawl_offline_20261201_000000_000Z',
      module: 'crawl',
      execution_mode: 'offline_fixture',
      interaction: 'single_turn',
      dataset: '/data/scenarios.json',
      configuration: { audio_source: 'synthetic' },
    }
    const written = buildResultsDocument(run, [buildResultRow(passingRowInput())], ['restaurant_001'])
    expect(parseResultsDocument(JSON.stringify(written), { source })).toEqual(written)
    expect(parseResultsDocument(structuredClone(written), { source })).toEqual(written)
  })
})

describe('a malformed results.json is still refused, naming the file and the field', () => {
  test('text that is not JSON', () => {
    const error = refusal('{"schema_version": "2.0",')
    expect(error.message).toContain(source)
    expect(error.message).toContain('is not JSON')
  })
  test('another schema version, or none', () => {
    expect(refusal({ ...referenceDocument([]), schema_version: '1.0' }).message).toContain(
      `${source}: schema_version must be "2.0" (got "1.0")`,
    )
    expect(refusal(null).message).toContain('(got nothing)')
  })
  test('a field of the wrong type names its JSON path', () => {
    const row = referenceRunRow() as Mutable
    row.metrics.audio.response_rate = 'high'
    const error = refusal(referenceDocument([row]))
    expect(error.source).toBe(source)
    expect(error.message).toContain('results[0].metrics.audio.response_rate')
  })
  test('artifacts with a key the reference never writes are not filled in but refused', () => {
    const row = referenceRunRow()
    row.artifacts = { conversation_audio: 'a.wav', recording: 'b.wav' }
    expect(refusal(referenceDocument([row])).message).toContain('results[0].artifacts')
  })
  test('a row without an artifacts object is refused', () => {
    const { artifacts: _dropped, ...row } = referenceRunRow()
    expect(refusal(referenceDocument([row])).message).toContain('results[0].artifacts')
  })
  test('response_opportunities with a count the reference does not write is refused', () => {
    const row = referenceRunRow() as Mutable
    row.metrics.audio.response_opportunities.deadline_expired_count = 1
    expect(refusal(referenceDocument([row])).message).toContain(
      'results[0].metrics.audio.response_opportunities',
    )
  })
  test('an exclusion reason that did not occur (a 0) or an unknown reason is refused', () => {
    const zero = referenceRunRow() as Mutable
    zero.metrics.audio.response_exclusion_reasons = { caller_closing: 1, backchannel: 0 }
    zero.metrics.audio.response_opportunities.response_excluded_count = 1
    expect(refusal(referenceDocument([zero])).message).toContain('only reasons that occurred are listed')
    const unknown = referenceRunRow() as Mutable
    unknown.metrics.audio.response_exclusion_reasons = { hung_up: 1 }
    expect(refusal(referenceDocument([unknown])).message).toContain(
      'results[0].metrics.audio.response_exclusion_reasons',
    )
  })
  test('opportunity counts that do not add up are refused', () => {
    const row = referenceRunRow() as Mutable
    row.metrics.audio.response_opportunities.response_total = 3
    expect(refusal(referenceDocument([row])).message).toContain(
      'response_total = response_count + no_response_count',
    )
  })
  test('contract-v2 policy fields come together or not at all', () => {
    const row = referenceRunRow() as Mutable
    delete row.metrics.audio.response_opportunities
    expect(refusal(referenceDocument([row])).message).toContain('missing response_opportunities')
  })
  test('a zero duration summary is a measurement; a half-null one is refused', () => {
    const row = referenceRunRow() as Mutable
    row.metrics.audio.floor_hold_silence_ms = { cumulative: 0, maximum: null }
    expect(refusal(referenceDocument([row])).message).toContain(
      'results[0].metrics.audio.floor_hold_silence_ms.maximum',
    )
  })
  test('a summary that disagrees with the rows is refused', () => {
    const file = referenceDocument([referenceRunRow()]) as Mutable
    file.summary.passed = 0
    expect(refusal(file).message).toContain('summary.passed is 0 but the rows count 1')
  })
  test('the same scenario twice (same trial) is refused naming both rows', () => {
    const error = refusal(
      referenceDocument([referenceRunRow('a'), referenceRunRow('b'), referenceRunRow('a')]),
    )
    expect(error.message).toContain(source)
    expect(error.message).toContain('scenario "a" trial 1 twice: rows[0] and rows[2]')
  })
  test('an extension key no feature owns is refused by name', () => {
    const row = referenceRunRow() as Mutable
    row.observability.live_evals = { version: '1.0', yield_intervals: [] }
    expect(refusal(referenceDocument([row])).message).toContain('results[0].observability.live_evals')
  })
  test('a long list of problems is cut after ten', () => {
    const rows = Array.from({ length: 12 }, (_, index) => {
      const row = referenceRunRow(`s${index}`) as Mutable
      row.metrics.task.tool_accuracy = 2
      return row
    })
    expect(refusal(referenceDocument(rows)).message).toContain('(and 2 more)')
  })
})
