// `live-evals drift`, end to end against the dress-rehearsal server (no key, no internet): one CRAWL scenario of
// the fixture project recorded live (fixture_hours in the responses architecture, copied from the shared run
// `rehearsalRecorded`, shared-child-run.test-helpers.ts), then recorded again by the command. The same service: no drift (same
// verdict, tool calls, latency within tolerance, and every event and field it sent modelled). A service that got
// slower and grew its protocol (a loopback front holding each server event back 3 s, adding a field to
// session.started and an event type the offline server never sends): the latency delta and both protocol
// findings are reported, and the command exits 1.
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startDriftingProxy } from '../cassettes/drift/drifting-proxy.test-helpers.ts'
import type { DriftReport } from '../cassettes/drift/report.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { startRehearsalServer } from '../testing/rehearsal/index.ts'
import {
  type ChildRun,
  cleanEnvironment,
  FIXTURE_CONFIG,
  ROOT,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../vitest/child-vitest.test-helpers.ts'
import {
  copyRecordedCassettes,
  recordedResponsesDocument,
  sharedChildRun,
} from '../vitest/shared-child-run.test-helpers.ts'
import { driftCommand } from './drift.ts'
import type { CommandIO } from './main.ts'
import { runVitestChild, type VitestInvocation, type VitestOutcome } from './vitest-child.ts'

const DATASET = join(ROOT, 'src/vitest/fixtures/tiny-dataset.json')
const KEY = 'sk-test-REHEARSAL-drift-key-0e4c7a21'
const DELAY_MS = 3_000
// Real-time pacing on a shared machine moves a live response latency by a few hundred ms from run to run (the
// harness's frames go out late, the service's audio clock lags): the tolerance is above that, the delay far above.
const TOLERANCE_MS = '1000'
let dir = ''
let recording: ChildRun = { code: null, output: '' }
/** The cassette drift re-records, copied from the shared recording. */
const RECORDED = 'fixture_hours__responses'
let recordedRow: ResultItem | undefined

interface Drifted {
  code: number
  out: string
  report: DriftReport
}
let same: Drifted
let changed: Drifted

/**
 * Both commands re-grade the same recording (the same cassette, dataset and project, no network), so the second
 * reads the first's re-grade instead of starting a child Vitest of its own (about 3 CPU s less); each command's
 * live re-recording is its own. The re-grade's proof is the first command's: no drift, equal verdicts.
 */
let recordingRegraded: Promise<VitestOutcome> | undefined
function regradeOnce(invocation: VitestInvocation, io: CommandIO): Promise<VitestOutcome> {
  if (invocation.env.LIVE_EVALS_REPLAY_REGRADE !== '1') return runVitestChild(invocation, io)
  recordingRegraded ??= runVitestChild(invocation, io)
  return recordingRegraded
}

async function drift(env: Record<string, string>, out: string): Promise<Drifted> {
  let text = ''
  const io = { out: (chunk: string) => (text += chunk), err: (chunk: string) => (text += chunk) }
  const code = await driftCommand(
    [
      join(dir, 'cassettes'),
      '--max-scenarios',
      '1',
      '--latency-tolerance-ms',
      TOLERANCE_MS,
      '--out',
      out,
      '--vitest-config',
      FIXTURE_CONFIG,
      '--project',
      'crawl-fixture',
    ],
    io,
    { env: cleanEnvironment(env), cwd: ROOT, runVitest: regradeOnce },
  )
  const report = JSON.parse(
    await readFile(join(out, 'drift.json'), 'utf8').catch(() => 'null'),
  ) as DriftReport
  return { code, out: text, report }
}

beforeAll(async () => {
  const space = await scratch()
  dir = space.dir
  const recorded = await sharedChildRun('rehearsalRecorded')
  recording = recorded
  // fixture_hours in the responses architecture only: the one recording these tests re-record.
  await copyRecordedCassettes(recorded, join(dir, 'cassettes'), (id) => id === RECORDED)
  recordedRow = (await recordedResponsesDocument(recorded))?.results.find(
    (row) => row.scenario_id === 'fixture_hours',
  )
  const server = await startRehearsalServer({ datasets: [DATASET] })
  const live = { ...space.env, ...server.env, OPENAI_API_KEY: KEY, OPENAI_ASSISTANT_MODE: 'responses' }
  try {
    same = await drift(live, join(dir, 'drift-same'))
    const proxy = await startDriftingProxy({
      target: server.url.replace(/\/v1\/live\/sessions$/, ''),
      delayMs: DELAY_MS,
      extendProtocol: true,
    })
    try {
      changed = await drift({ ...live, OPENAI_LIVE_ENDPOINT: proxy.baseURL }, join(dir, 'drift-changed'))
    } finally {
      await proxy.close()
    }
  } finally {
    await server.close()
  }
}, 5 * SPAWN_TIMEOUT_MS)

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

describe('live-evals drift against the dress rehearsal', () => {
  test('the same service: no drift, and everything it sent is modelled', () => {
    expect(recording.code, recording.output.slice(-2000)).not.toBeNull()
    expect(recordedRow?.status, recording.output.slice(-2000)).toBe('passed')
    expect(same.code, same.out.slice(-4000)).toBe(0)
    const [phase] = same.report.phases
    expect(phase?.cassettes).toEqual([RECORDED])
    expect(phase?.metrics).toMatchObject({
      paired: 1,
      pass: { recorded: 1, now: 1, changed: [] },
      tool_argument_changes: [],
      delegation_changes: [],
      drifted: false,
    })
    expect(phase?.metrics?.latency_p50_ms.recorded).not.toBeNull()
    expect(phase?.protocol).toEqual([])
    expect(same.out).toContain('✅ **No drift**')
  })

  test('a slower service with a grown protocol: the latency delta and both protocol findings, exit 1', () => {
    expect(changed.code, changed.out.slice(-4000)).toBe(1)
    const [phase] = changed.report.phases
    const latency = phase?.metrics?.latency_p50_ms
    expect(latency?.drifted).toBe(true)
    expect(latency?.delta).toBeGreaterThan(DELAY_MS - 800)
    expect(latency?.delta).toBeLessThan(DELAY_MS + 1_500)
    expect(phase?.protocol).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'unknown_field',
          event_type: 'session.started',
          path: 'session.turn_detection',
        }),
        expect.objectContaining({ kind: 'unknown_event_type', event_type: 'session.heartbeat' }),
      ]),
    )
    expect(changed.report.outcome).toBe('drift')
    expect(changed.out).toContain('⚠️ **Drift**')
    expect(changed.out).toMatch(/\| unknown_field \| session\.started \| session\.turn_detection \| 1 \|/)
  })
})
