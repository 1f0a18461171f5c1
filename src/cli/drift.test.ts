// The command line of `live-evals drift`: live and billed, so it refuses without a key and without a bound, each
// with exit 2 and a message naming what is missing, before any Vitest run starts. And what it reports when the
// live run kept no recording to check: the protocol is unknown, never "no drift" (the Vitest runs are stand-ins
// writing results files; the end-to-end run is drift.integration.test.ts).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { writeHeaderOnlyCassette } from '../cassettes/cassette-header.test-helpers.ts'
import type { DriftReport } from '../cassettes/drift/report.ts'
import { passingRowInput } from '../reporting/reporting-fixtures.ts'
import { buildResultRow } from '../reporting/result-item.ts'
import type { RunMetadata } from '../reporting/result-schema.ts'
import { buildResultsDocument } from '../reporting/results-document.ts'
import { driftCommand } from './drift.ts'
import type { VitestInvocation, VitestOutcome } from './vitest-child.ts'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'live-evals-drift-cli-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function command(argv: string[], env: NodeJS.ProcessEnv) {
  let err = ''
  let started = 0
  const code = await driftCommand(
    argv,
    { out: () => {}, err: (text) => (err += text) },
    {
      env,
      cwd: dir,
      runVitest: async () => {
        started += 1
        return { code: 0, output: '', resultFiles: [] }
      },
    },
  )
  return { code, err, started }
}

const KEY = { OPENAI_API_KEY: 'sk-test-drift-cli' }

describe('live-evals drift: refusals', () => {
  test('without a bound, with an unbounded or wrong one', async () => {
    for (const [argv, message] of [
      [['cassettes'], '--max-scenarios N is required'],
      [
        ['cassettes', '--max-scenarios', '0'],
        '--max-scenarios must be a whole number of at least 1 (got "0")',
      ],
      [['cassettes', '--max-scenarios', 'all'], '(got "all")'],
      [['cassettes', '--max-scenarios', '2.5'], '(got "2.5")'],
      [
        ['cassettes', '--max-scenarios', '1', '--latency-tolerance-ms', '-1'],
        '--latency-tolerance-ms must be',
      ],
    ] as const) {
      const refused = await command([...argv], KEY)
      expect(refused.code, argv.join(' ')).toBe(2)
      expect(refused.err).toContain(message)
      expect(refused.started).toBe(0)
    }
  })

  test('without a key, or without cassettes', async () => {
    const keyless = await command(['cassettes', '--max-scenarios', '1'], { OPENAI_API_KEY: ' ' })
    expect(keyless.code).toBe(2)
    expect(keyless.err).toContain('needs OPENAI_API_KEY (it is billed)')
    const missing = await command(['cassettes', '--max-scenarios', '1'], KEY)
    expect(missing.code).toBe(2)
    expect(missing.err).toContain(`${join(dir, 'cassettes')} is not a folder of cassettes`)
    expect(missing.started).toBe(0)
  })
})

const IDS = ['crawl_001', 'crawl_002'] as const

/**
 * A stand-in for the two Vitest runs of one phase: each writes a results.json with a passing row per scenario, and
 * the live run records again the cassettes of `rerecorded` (header only) into its cassettes folder.
 */
function standInRuns(rerecorded: readonly string[]) {
  let runs = 0
  return async (invocation: VitestInvocation): Promise<VitestOutcome> => {
    runs += 1
    const folder = join(dir, `run-${runs}`)
    await mkdir(folder, { recursive: true })
    const run = {
      id: `run-${runs}`,
      module: 'crawl',
      execution_mode: 'live',
      interaction: 'single_turn',
      dataset: 'd.json',
      configuration: { assistant_mode: 'responses' },
    } as unknown as RunMetadata
    const rows = IDS.map((id) => buildResultRow(passingRowInput({ scenario_id: id })))
    const file = join(folder, 'results.json')
    await writeFile(file, JSON.stringify(buildResultsDocument(run, rows, [...IDS])))
    if (invocation.env.LIVE_EVALS_MODE === 'live') {
      const cassettes = invocation.env.LIVE_EVALS_CASSETTES as string
      for (const id of rerecorded)
        await writeHeaderOnlyCassette(cassettes, { id: `${id}__responses`, scenario_id: id })
    }
    return { code: 0, output: '', resultFiles: [file] }
  }
}

async function driftWith(rerecorded: readonly string[]) {
  for (const id of IDS)
    await writeHeaderOnlyCassette(join(dir, 'cassettes'), { id: `${id}__responses`, scenario_id: id })
  let out = ''
  const code = await driftCommand(
    ['cassettes', '--max-scenarios', '2', '--out', 'drift'],
    { out: (text) => (out += text), err: (text) => (out += text) },
    { env: KEY, cwd: dir, runVitest: standInRuns(rerecorded) },
  )
  const report = JSON.parse(await readFile(join(dir, 'drift', 'drift.json'), 'utf8')) as DriftReport
  return { code, out, report }
}

describe('live-evals drift: what the new recordings could not show', () => {
  test('no new recording read: the protocol is unknown and the run incomplete (exit 3), never "no drift"', async () => {
    const { code, out, report } = await driftWith([])
    expect(code, out).toBe(3)
    expect(report.outcome).toBe('incomplete')
    const [phase] = report.phases
    expect(phase?.metrics?.drifted).toBe(false)
    expect(phase?.protocol).toBeNull()
    expect(phase?.protocol_unread).toEqual(['crawl_001__responses', 'crawl_002__responses'])
    expect(phase?.incomplete).toContain('no new recording could be read')
    expect(out).toContain('unknown, not checked: none of the new recordings could be read')
    expect(out).not.toContain('every event type and field the service sent is modelled')
  })

  test('one of two read: checked in that one, the other named as not checked', async () => {
    const { code, out, report } = await driftWith(['crawl_002'])
    expect(code, out).toBe(0)
    expect(report.outcome).toBe('no_drift')
    expect(report.phases[0]?.protocol).toEqual([])
    expect(report.phases[0]?.protocol_unread).toEqual(['crawl_001__responses'])
    expect(out).toContain('none in the 1 new recording(s) read')
    expect(out).toContain('not read, so not checked: `crawl_001__responses`')
  })
})
