// Record once against the dress-rehearsal server, replay with no server and no key, through Vitest as a user runs
// it: the fixture project's CRAWL spec in a child Vitest, LIVE_EVALS_MODE=live LIVE_EVALS_RECORD=1 against the
// rehearsal server (both architectures, real-time pacing), then LIVE_EVALS_MODE=replay with the server closed and
// every OpenAI variable unset. Every row's status, checks and metrics equal the recorded run's, times included (only
// its provenance and cassette block say how it was produced), the replay tally is printed, and the recorded key is
// in no cassette.
import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { startRehearsalServer } from '../testing/rehearsal/index.ts'
import {
  type ChildRun,
  FIXTURE_CONFIG,
  ROOT,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../vitest/child-vitest.test-helpers.ts'
import { replayedRow } from './comparable-row.test-helpers.ts'

const DATASET = join(ROOT, 'src/vitest/fixtures/tiny-dataset.json')
const KEY = 'sk-test-REHEARSAL-cassette-key-3c8e1f20'
let dir = ''
let recording: ChildRun = { code: null, output: '' }
let replay: ChildRun = { code: null, output: '' }
/** A replay of a project never recorded: an empty cassettes folder. */
let unrecorded: ChildRun = { code: null, output: '' }
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
  const server = await startRehearsalServer({ datasets: [DATASET] })
  try {
    recording = await runVitest(['run', '--config', FIXTURE_CONFIG], {
      ...scratchSpace.env,
      ...server.env,
      OPENAI_API_KEY: KEY,
      LIVE_EVALS_MODE: 'live',
      LIVE_EVALS_RECORD: '1',
      LIVE_EVALS_CASSETTES: cassettes,
      LIVE_EVALS_JUDGE: 'false',
      LIVE_EVALS_RESULTS_DIR: join(dir, 'recorded'),
    })
  } finally {
    await server.close()
  }
  // The two replays at once (on the replay's virtual clock, so no timing is at stake): they read the cassettes and
  // write results folders of their own. Both are waited for even when one fails, so none outlives the folder.
  const [replayed, neverRecorded] = await Promise.allSettled([
    runVitest(['run', '--config', FIXTURE_CONFIG], {
      ...scratchSpace.env,
      LIVE_EVALS_MODE: 'replay',
      LIVE_EVALS_CASSETTES: cassettes,
      LIVE_EVALS_JUDGE: 'false',
      LIVE_EVALS_RESULTS_DIR: join(dir, 'replayed'),
    }),
    runVitest(['run', '--config', FIXTURE_CONFIG], {
      ...scratchSpace.env,
      LIVE_EVALS_MODE: 'replay',
      LIVE_EVALS_CASSETTES: join(dir, 'never-recorded'),
      LIVE_EVALS_JUDGE: 'false',
      LIVE_EVALS_RESULTS_DIR: join(dir, 'unrecorded'),
    }),
  ])
  if (replayed.status === 'rejected') throw replayed.reason
  if (neverRecorded.status === 'rejected') throw neverRecorded.reason
  replay = replayed.value
  unrecorded = neverRecorded.value
  await documentsIn(join(dir, 'recorded'), documents.recorded)
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
    }
    expect(replay.output, replay.output.slice(-3000)).toMatch(
      /Replay \(strict\): 2 replayed, 0 diverged, 0 missing, 0 refused/,
    )
    const files = await readdir(join(dir, 'cassettes'), { recursive: true, withFileTypes: true })
    for (const file of files.filter((entry) => entry.isFile())) {
      const bytes = await readFile(join(file.parentPath, file.name))
      expect(bytes.includes(Buffer.from(KEY)), file.name).toBe(false)
    }
  })
  test('a scenario never recorded fails on its missing cassette, counted as missing, not on its speech', async () => {
    expect(unrecorded.code).toBe(1)
    expect(unrecorded.output).toMatch(/Replay \(strict\): 0 replayed, 0 diverged, 2 missing, 0 refused/)
    expect(unrecorded.output).not.toContain('api.openai.com')
    const runs = new Map<string, ResultsDocument>()
    await documentsIn(join(dir, 'unrecorded'), runs)
    expect([...runs.keys()].sort()).toEqual(['crawl_replay_client', 'crawl_replay_responses'])
    for (const document of runs.values()) {
      for (const row of document.results) {
        expect(row.status).toBe('infrastructure_error')
        expect(row.error).toMatchObject({ stage: 'replay' })
        expect(row.error?.message).toMatch(/^No cassette /)
        expect(row.observability?.live_evals).toMatchObject({ cassette: { outcome: 'missing' } })
      }
    }
  })
})
