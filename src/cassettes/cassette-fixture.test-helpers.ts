// A cassette written by hand, for the tests that build one instead of recording it: a valid header (any field may
// be changed) and empty sessions, HTTP and tool executions unless given.
import { CASSETTE_VERSION, type Cassette, type CassetteHeader } from './schema.ts'

export function cassetteHeaderFixture(overrides: Partial<CassetteHeader> = {}): CassetteHeader {
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
    models: { live_model: 'gpt-live-1' },
    settings: {},
    recorded_at: '2026-12-01T00:00:00.000Z',
    ...overrides,
  }
}

export function cassetteFixture(
  parts: Partial<Omit<Cassette, 'header'>> & { header?: Partial<CassetteHeader> } = {},
): Cassette {
  return {
    header: cassetteHeaderFixture(parts.header),
    sessions: parts.sessions ?? [],
    http: parts.http ?? [],
    tool_executions: parts.tool_executions ?? null,
    pacing: parts.pacing ?? null,
  }
}
