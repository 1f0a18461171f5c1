// Record once against the dress-rehearsal server, replay with no server and no key, through Vitest as a user runs
// it: the fixture project's CRAWL spec in a child Vitest, LIVE_EVALS_MODE=live LIVE_EVALS_RECORD=1 against the
// rehearsal server (both architectures, the judge answering, real-time pacing: the shared run `rehearsalRecorded`,
// shared-child-run.test-helpers.ts, which drift and grade --cassettes read too), then LIVE_EVALS_MODE=replay of a
// copy of its cassettes with every OpenAI variable unset (the judge's answers replayed too). Every row's status,
// checks, judge grades and metrics equal the recorded run's, times included (only its provenance and cassette
// block say how it was produced), the replay tally is printed, and the recorded key is in no cassette. A replay against a changed dataset counts a scenario never recorded as missing and one whose caller
// text changed as refused (another version of the scenario), every row in one bucket of the tally.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import {
  type ChildRun,
  FIXTURE_CONFIG,
  ROOT,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../vitest/child-vitest.test-helpers.ts'
import {
  copyRecordedCassettes,
  REHEARSAL_KEY,
  sharedChildRun,
} from '../vitest/shared-child-run.test-helpers.ts'
import { replayedRow } from './comparable-row.test-helpers.ts'

const DATASET = join(ROOT, 'src/vitest/fixtures/tiny-dataset.json')
let dir = ''
/** The shared recording's results folder (read only). */
let recordedResults = ''
let recording: ChildRun = { code: null, output: '' }
let replay: ChildRun = { code: null, output: '' }
/**
 * A replay of the recorded cassettes against a changed dataset: one scenario never recorded (a new id and text) and
 * one whose caller text changed. Neither has recorded caller speech.
 */
let unrecorded: ChildRun = { code: null, output: '' }
const NEVER_RECORDED = 'fixture_never_recorded'
const RESPOKEN = 'fixture_hours'
const RESPOKEN_TEXT = 'Are you open on Sunday evenings?'
const documents = {
  recorded: new Map<string, ResultsDocument>(),
  replayed: new Map<string, ResultsDocument>(),
}

async function documentsIn(results: string, into: Map<string, ResultsDocument>): Promise<void> {
  for (const run of await runDirectoriesIn(results)) {
    const text = await readFile(join(results, run, 'results.json'), 'utf8')
    const document = ResultsDocumentSchema.parse(JSON.parse(text))
    into.set(run.replace(/_\d{8}_\d{6}_\d{3}Z$/, ''), document)
  }
}

beforeAll(async () => {
  const scratchSpace = await scratch()
  dir = scratchSpace.dir
  const cassettes = join(dir, 'cassettes')
  const recorded = await sharedChildRun('rehearsalRecorded')
  recording = recorded
  recordedResults = join(recorded.dir, 'results')
  await copyRecordedCassettes(recorded, cassettes)
  const dataset = JSON.parse(await readFile(DATASET, 'utf8'))
  const [first, second] = dataset.scenarios
  Object.assign(first, { id: NEVER_RECORDED, input: { ...first.input, text: 'A table for nine tonight?' } })
  expect(second.id).toBe(RESPOKEN)
  second.input.text = RESPOKEN_TEXT
  const changedDataset = join(dir, 'changed-dataset.json')
  await writeFile(changedDataset, JSON.stringify(dataset))
  // The two replays at once (on the replay's virtual clock, so no timing is at stake): they read the cassettes and
  // write results folders of their own. Both are waited for even when one fails, so none outlives the folder.
  const [replayed, neverRecorded] = await Promise.allSettled([
    runVitest(['run', '--config', FIXTURE_CONFIG], {
      ...scratchSpace.env,
      LIVE_EVALS_MODE: 'replay',
      LIVE_EVALS_CASSETTES: cassettes,
      LIVE_EVALS_RESULTS_DIR: join(dir, 'replayed'),
    }),
    runVitest(['run', '--config', FIXTURE_CONFIG], {
      ...scratchSpace.env,
      LIVE_EVALS_MODE: 'replay',
      LIVE_EVALS_CASSETTES: cassettes,
      LIVE_EVALS_DATASET: changedDataset,
      LIVE_EVALS_JUDGE: 'false',
      LIVE_EVALS_RESULTS_DIR: join(dir, 'unrecorded'),
    }),
  ])
  if (replayed.status === 'rejected') throw replayed.reason
  if (neverRecorded.status === 'rejected') throw neverRecorded.reason
  replay = replayed.value
  unrecorded = neverRecorded.value
  await documentsIn(recordedResults, documents.recorded)
  await documentsIn(join(dir, 'replayed'), documents.replayed)
}, 4 * SPAWN_TIMEOUT_MS)

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

const comparable = replayedRow

describe('record against the dress rehearsal, replay keyless through Vitest', () => {
  test('the replayed rows equal the recorded ones and the run prints its replay tally', async () => {
    expect(recording.output, recording.output.slice(-3000)).toMatch(/\d+ passed, \d+ failed/)
    expect([...documents.recorded.keys()].sort()).toEqual(['crawl_live_client', 'crawl_live_responses'])
    // A replayed run's folder says so: crawl_replay_<architecture>.
    expect([...documents.replayed.keys()].sort()).toEqual(['crawl_replay_client', 'crawl_replay_responses'])
    for (const [run, original] of documents.recorded) {
      const replayed = documents.replayed.get(run.replace('_live_', '_replay_')) as ResultsDocument
      expect(replayed.summary, run).toEqual(original.summary)
      expect(replayed.results.map(comparable), run).toEqual(original.results.map(comparable))
      // The judge answered the recording, so equal grades are its answers replayed, not two nulls.
      for (const row of replayed.results) {
        expect(row.metrics.task.semantic_quality.score, `${run} ${row.scenario_id}`).not.toBeNull()
      }
    }
    expect(replay.output, replay.output.slice(-3000)).toMatch(
      /Replay \(strict\): 2 replayed, 0 diverged, 0 missing, 0 refused/,
    )
    const files = await readdir(join(dir, 'cassettes'), { recursive: true, withFileTypes: true })
    for (const file of files.filter((entry) => entry.isFile())) {
      const bytes = await readFile(join(file.parentPath, file.name))
      expect(bytes.includes(Buffer.from(REHEARSAL_KEY)), file.name).toBe(false)
    }
  })
  test('without recorded speech, each scenario is in one tally bucket: never recorded is missing, a changed text refused', async () => {
    expect(unrecorded.code).toBe(1)
    expect(unrecorded.output).toMatch(/Replay \(strict\): 0 replayed, 0 diverged, 1 missing, 1 refused\./)
    expect(unrecorded.output).not.toMatch(/api\.openai\.com|OPENAI_API_KEY/)
    const runs = new Map<string, ResultsDocument>()
    await documentsIn(join(dir, 'unrecorded'), runs)
    expect([...runs.keys()].sort()).toEqual(['crawl_replay_client', 'crawl_replay_responses'])
    for (const document of runs.values()) {
      const rows = new Map(document.results.map((row) => [row.scenario_id, row]))
      expect([...rows.keys()].sort()).toEqual([RESPOKEN, NEVER_RECORDED])
      for (const row of rows.values()) {
        expect(row.status).toBe('infrastructure_error')
        expect(row.error).toMatchObject({ stage: 'replay' })
      }
      expect(rows.get(NEVER_RECORDED)?.error?.message).toMatch(/^No cassette /)
      expect(rows.get(NEVER_RECORDED)?.observability?.live_evals).toMatchObject({
        cassette: { outcome: 'missing' },
      })
      // The cassette is there but for another version of the scenario; the speech fact says what changed.
      const respoken = rows.get(RESPOKEN)?.error?.message
      expect(respoken).toContain(`was recorded for another version of scenario ${RESPOKEN}`)
      expect(respoken).toContain(
        `the recording holds no caller speech for this input.text (${JSON.stringify(RESPOKEN_TEXT)})`,
      )
      expect(rows.get(RESPOKEN)?.observability?.live_evals).toMatchObject({
        cassette: { outcome: 'refused' },
      })
    }
  })
})
