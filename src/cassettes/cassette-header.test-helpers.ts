// Cassettes for tests that read headers, frames or HTTP exchanges without recording anything: a valid header with
// the fields a test cares about overridden, a cassette around it, and a header-only cassette written where the
// catalogue (catalogue.ts) finds it. One builder, so a new header field is added in one place.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CASSETTE_FILE, CASSETTE_VERSION, type Cassette, type CassetteHeader } from './schema.ts'

/** A valid header of a CRAWL cassette (`crawl_001`, responses, no trial), with `overrides` applied. */
export function testCassetteHeader(overrides: Partial<CassetteHeader> = {}): CassetteHeader {
  return {
    cassette_version: CASSETTE_VERSION,
    id: 'crawl_001__responses',
    live_evals_version: '0.1.0',
    openai_sdk_version: '7.59.0',
    phase: 'crawl',
    architecture: 'responses',
    trial: null,
    scenario_id: 'crawl_001',
    scenario_hash: 'h',
    assistant_hash: null,
    models: {},
    settings: {},
    recorded_at: '2026-12-01T00:00:00.000Z',
    ...overrides,
  }
}

/** A cassette with that header and nothing recorded unless `parts` says otherwise. */
export function testCassette(
  header: Partial<CassetteHeader> = {},
  parts: Partial<Omit<Cassette, 'header'>> = {},
): Cassette {
  return { header: testCassetteHeader(header), sessions: [], http: [], tool_executions: null, ...parts }
}

/** Writes `<folder>/<id>/cassette.json` of a cassette with that header and nothing recorded; returns the header. */
export async function writeHeaderOnlyCassette(
  folder: string,
  header: Partial<CassetteHeader> = {},
): Promise<CassetteHeader> {
  const cassette = testCassette(header)
  await mkdir(join(folder, cassette.header.id), { recursive: true })
  await writeFile(join(folder, cassette.header.id, CASSETTE_FILE), JSON.stringify(cassette))
  return cassette.header
}
