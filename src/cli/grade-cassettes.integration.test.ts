// `live-evals grade --cassettes`, end to end without a key or the internet: the fixture project's CRAWL spec is
// recorded live against the dress-rehearsal server (its judge answering too: the shared run `rehearsalRecorded`,
// shared-child-run.test-helpers.ts), and the command re-grades a copy of its responses-architecture cassettes
// through a child Vitest of the same project. Nothing changed: every row equals
// the recorded one and the judge's recorded answers are reused. A changed expectation (a required tool and a new
// criterion for fixture_wrong_tool, now expecting the availability check the assistant makes): that row passes
// where it failed, says its scenario changed, and its semantic grades are null with the reason, never the old score.
// A changed caller text (fixture_hours) has no recorded speech: a divergence in the replay tally, and exit 1.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { comparableRow } from '../cassettes/comparable-row.test-helpers.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import type { RegradeRowExtension } from '../reporting/extensions/regrade.ts'
import type { ResultItem, ResultsDocument } from '../reporting/result-schema.ts'
import {
  type ChildRun,
  cleanEnvironment,
  FIXTURE_CONFIG,
  ROOT,
  resultsDocumentsIn,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../vitest/child-vitest.test-helpers.ts'
import {
  copyRecordedCassettes,
  recordedResponsesDocument,
  sharedChildRun,
} from '../vitest/shared-child-run.test-helpers.ts'
import { gradeCassettesCommand } from './grade-cassettes.ts'

const DATASET = join(ROOT, 'src/vitest/fixtures/tiny-dataset.json')
const CHANGED = 'fixture_wrong_tool'
/** The scenario whose caller text the changed dataset rewrites. */
const RESPOKEN = 'fixture_hours'
let dir = ''
let baseEnv: Record<string, string> = {}
let recording: ChildRun = { code: null, output: '' }
/** The shared recording's responses-architecture results (read from its folder, never written). */
let recordedDocument: ResultsDocument | undefined

interface Graded {
  code: number
  out: string
  documents: ResultsDocument[]
}

/** The results.json of every run folder in `results`, in folder order; none when the folder was never made. */
async function documentsIn(results: string): Promise<ResultsDocument[]> {
  return [...(await resultsDocumentsIn(results).catch(() => new Map<string, ResultsDocument>())).values()]
}

async function grade(args: string[], out: string): Promise<Graded> {
  let text = ''
  const io = { out: (chunk: string) => (text += chunk), err: (chunk: string) => (text += chunk) }
  const code = await gradeCassettesCommand([...args, '--out', out], io, {
    env: cleanEnvironment(baseEnv),
    cwd: ROOT,
  })
  return { code, out: text, documents: await documentsIn(out) }
}

const FIXTURE = ['--vitest-config', FIXTURE_CONFIG, '--project', 'crawl-fixture']
let unchanged: Graded
let changed: Graded

beforeAll(async () => {
  const space = await scratch()
  dir = space.dir
  baseEnv = space.env
  const recorded = await sharedChildRun('rehearsalRecorded')
  recording = recorded
  // The responses architecture's recordings only: the command re-grades each recorded architecture in a run of
  // its own, and one shows everything these tests prove.
  await copyRecordedCassettes(recorded, join(dir, 'cassettes'), (id) => id.endsWith('__responses'))
  recordedDocument = await recordedResponsesDocument(recorded)
  unchanged = await grade(['--cassettes', join(dir, 'cassettes'), ...FIXTURE], join(dir, 'regraded'))
  // The same recordings against a dataset whose expectations changed for one scenario.
  const dataset = JSON.parse(await readFile(DATASET, 'utf8'))
  const scenario = dataset.scenarios.find((entry: { id: string }) => entry.id === CHANGED)
  scenario.expected.tools.required = [
    { name: 'check_availability', arguments: { date: '2026-08-13', time: '19:00', party_size: 2 } },
  ]
  scenario.expected.criteria = [...scenario.expected.criteria, 'Offers to book the slot.']
  // And the other scenario's caller now says something else: the recording holds no speech for it.
  const spoken = dataset.scenarios.find((entry: { id: string }) => entry.id === RESPOKEN)
  spoken.input.text = 'Are you open on Sunday evenings?'
  await mkdir(join(dir, 'changed'))
  await writeFile(join(dir, 'changed', 'dataset.json'), JSON.stringify(dataset))
  changed = await grade(
    ['--cassettes', join(dir, 'cassettes'), ...FIXTURE, '--dataset', join(dir, 'changed', 'dataset.json')],
    join(dir, 'regraded-changed'),
  )
}, 4 * SPAWN_TIMEOUT_MS)

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

const comparable = (row: ResultItem) => comparableRow(row)

const regradeOf = (row: ResultItem) =>
  (row.observability?.[EXTENSION_KEY] as { regrade?: RegradeRowExtension } | undefined)?.regrade

describe('live-evals grade --cassettes', () => {
  test('nothing changed: every re-graded row equals the recorded one, the judge answers reused', async () => {
    expect(recording.output, recording.output.slice(-3000)).toMatch(/\d+ passed, \d+ failed/)
    const recorded = recordedDocument
    expect(unchanged.code, unchanged.out.slice(-3000)).toBe(0)
    expect(unchanged.documents).toHaveLength(1)
    const [regraded] = unchanged.documents as [ResultsDocument]
    expect(regraded.run.id).not.toBe(recorded?.run.id)
    const failures = (document: ResultsDocument | undefined) =>
      JSON.stringify(
        document?.results.map((row) => [
          row.scenario_id,
          row.status,
          row.assessment?.checks.filter((check) => check.status === 'failed').map((check) => check.id),
          row.error,
        ]),
      )
    expect(regraded.summary, `${failures(regraded)} recorded ${failures(recorded)}`).toEqual(
      recorded?.summary,
    )
    expect(regraded.results.map(comparable)).toEqual(recorded?.results.map(comparable))
    for (const row of regraded.results) {
      expect(regradeOf(row), row.scenario_id).toMatchObject({ judge: 'reused', scenario_changed: false })
      expect(row.metrics.task.semantic_quality.score, row.scenario_id).not.toBeNull()
    }
    expect(unchanged.out).toMatch(/Replay \(strict\): 2 replayed, 0 diverged, 0 missing, 0 refused/)
    expect(unchanged.out).toMatch(/2 rows re-graded, .*judge answers reused in 2, not re-judged in 0/)
  })

  test('a changed expectation shows: the row passes, says its scenario changed, and is not re-judged', async () => {
    const recorded = recordedDocument
    const [regraded] = changed.documents as [ResultsDocument]
    const before = recorded?.results.find((row) => row.scenario_id === CHANGED) as ResultItem
    const after = regraded.results.find((row) => row.scenario_id === CHANGED) as ResultItem
    expect(before.status).toBe('failed')
    expect(before.metrics.task.tool_accuracy).toBe(0)
    expect(after.status).toBe('passed')
    expect(after.metrics.task.tool_accuracy).toBe(1)
    expect(after.metrics.task.semantic_quality.score).toBeNull()
    const regrade = regradeOf(after) as RegradeRowExtension
    expect(regrade).toMatchObject({ scenario_changed: true, judge: 'not_rejudged' })
    expect(regrade.reason).toMatch(/^today's judge request differs from the recorded one \(/)
    expect(changed.out).toMatch(/1 scenario\(s\) changed since recording/)
  })

  test('a changed caller text is a divergence in the tally, says to record again, and the re-grade exits 1', async () => {
    const [regraded] = changed.documents as [ResultsDocument]
    const after = regraded.results.find((row) => row.scenario_id === RESPOKEN) as ResultItem
    expect(after.status).toBe('infrastructure_error')
    const message =
      `Replay of cassette ${RESPOKEN}__responses diverged: caller speech (turn 0): the recording holds no caller ` +
      'speech for this input.text ("Are you open on Sunday evenings?")'
    expect(after.error).toEqual({ stage: 'replay', message: expect.stringContaining(message) })
    expect(after.error?.message).toContain('record it again (LIVE_EVALS_MODE=live LIVE_EVALS_RECORD=1)')
    expect(after.error?.message).not.toMatch(/OPENAI_API_KEY|api\.openai\.com/)
    expect(after.observability?.[EXTENSION_KEY]).toMatchObject({
      cassette: { outcome: 'diverged', first_divergence: { channel: 'caller', path: 'caller.speech' } },
    })
    // Every scenario is in one bucket of the tally, and the row that was not re-graded fails the command.
    expect(changed.out).toMatch(/Replay \(strict\): 1 replayed, 1 diverged, 0 missing, 0 refused\./)
    expect(changed.code, changed.out.slice(-3000)).toBe(1)
    expect(changed.out).toContain(
      `live-evals grade: 1 row(s) not re-graded over what was recorded:\n  ${RESPOKEN}: infrastructure error at replay: ${message}`,
    )
  })
})
