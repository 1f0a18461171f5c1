// Fault profiles on the live code path: a CRAWL run with LIVE_EVALS_MODE=live in a child Vitest against the
// rehearsal server (real-time pacing, GPT-Live sessions of both architectures, the client backend on the Responses
// API), three restaurant scenarios each naming its profile with a tag. What the harness owns live is injected:
// the tool plane (both architectures), client delegation's backend (a 5 s stall on the wall clock), the caller's
// uplink (a burst of the request silenced, which the rehearsal server hears without its lost words). Responses
// delegation's backend model is the service's live, so its backend rule refuses at input_setup.
// The run is the `crawl-faults` project of the shared run `rehearsal` (live-fixture/rehearsal-run.test-helpers.ts),
// beside the phases live-rehearsal.test.ts reads: one Vitest start for both.
import { basename, join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import type { ResultItem } from '../../reporting/result-schema.ts'
import { resultsDocumentsIn } from '../../vitest/child-vitest.test-helpers.ts'
import {
  REHEARSAL_WAIT_MS,
  type SharedChildRun,
  sharedChildRun,
} from '../../vitest/shared-child-run.test-helpers.ts'
import { FAULT_PROFILES, FAULTS_DATASET } from './live-fixture/rehearsal-run.test-helpers.ts'

let run: SharedChildRun = { code: null, output: '', dir: '' }
const rows = new Map<string, ResultItem>()

beforeAll(async () => {
  run = await sharedChildRun('rehearsal')
  for (const [name, document] of await resultsDocumentsIn(join(run.dir, 'results'))) {
    // The phases' runs of the same scenarios sit beside them; this project's runs read its dataset.
    if (basename(document.run.dataset) !== FAULTS_DATASET) continue
    const architecture = name.includes('_client_') ? 'client' : 'responses'
    for (const row of document.results) rows.set(`${architecture}/${row.scenario_id}`, row)
  }
}, REHEARSAL_WAIT_MS + 10_000)

test('the fault project ran its scenarios, each once in each architecture', () => {
  expect([...rows.keys()].sort(), run.output.slice(-3000)).toEqual(
    Object.keys(FAULT_PROFILES)
      .flatMap((id) => [`client/${id}`, `responses/${id}`])
      .sort(),
  )
})

function row(architecture: 'responses' | 'client', id: string): ResultItem {
  const found = rows.get(`${architecture}/${id}`)
  if (found === undefined) throw new Error(`no ${architecture} row for ${id}:\n${run.output.slice(-3000)}`)
  return found
}
const checkOf = (found: ResultItem, id: string) =>
  found.observability?.live_evals?.checks?.find((check) => check.id === id)

describe.each(['responses', 'client'] as const)('live CRAWL under fault profiles (%s)', (architecture) => {
  test('tool plane: the booking errors live, is recorded with its call, and is not confirmed', () => {
    const found = row(architecture, 'crawl_001_booking_complete_request')
    expect(found.observability?.provenance).toMatchObject({ execution_mode: 'live', clock: 'real_time' })
    const faults = found.observability?.live_evals?.faults
    expect(faults).toMatchObject({ profile: 'backend-down', source: 'scenario', classes: ['error'] })
    expect(faults?.injected[0]).toMatchObject({
      kind: 'error',
      target: 'create_reservation',
      call_id: expect.any(String),
    })
    expect(checkOf(found, 'no_false_confirmation')?.status).toBe('passed')
    expect(found.status).toBe('failed')
  })

  test('uplink: a burst of the request is silenced live, recorded with where and how long', () => {
    const found = row(architecture, 'crawl_020_hours')
    const loss = found.observability?.live_evals?.faults?.injected[0]
    expect(loss).toMatchObject({
      kind: 'uplink_loss',
      plane: 'transport',
      target: 'uplink',
      index: 0,
      duration_ms: 800,
    })
    expect(loss?.at_ms).toBeGreaterThan(0)
  })
})

test("backend plane live: client delegation's backend stalls 5 s and is recorded; Responses refuses the rule", () => {
  const client = row('client', 'crawl_009_availability_open_slot')
  expect(client.status, JSON.stringify(client.error)).toBe('passed')
  expect(client.observability?.live_evals?.faults?.injected).toEqual([
    expect.objectContaining({
      kind: 'backend_stall',
      plane: 'backend',
      delay_ms: 5_000,
      delegation_id: expect.any(String),
    }),
  ])
  expect(checkOf(client, 'dead_air_while_pending')?.status).toBe('failed')
  const responses = row('responses', 'crawl_009_availability_open_slot')
  expect(responses.status).toBe('infrastructure_error')
  expect(responses.error).toMatchObject({ stage: 'input_setup' })
  expect(responses.error?.message).toMatch(/live, GPT-Live calls the Responses backend model itself/)
})
