// One child Vitest run shared by every test file that only reads what it left (its output, results folder and
// reports). Each child run costs a Vitest start and its workers, 3 to 10 CPU seconds (bench/test-cpu.ts); the unit
// project's global setup (shared-child-run-setup.test-helpers.ts) gives the run a folder, the first test file that
// asks for a run starts it there under a lock (mkdir), and the others wait for its record. Outside that global setup
// (another project, a bare `vitest run <file>` of another config) each worker runs its own.
// A shared run is named here with its arguments, so every reader asks for the same run; readers never write into
// its folder.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { cp, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { inject } from 'vitest'
import type { ResultsDocument } from '../reporting/result-schema.ts'
import {
  prepareRehearsalRun,
  REHEARSAL_CONFIG,
  REHEARSAL_TEST_FILTER,
  rehearsalServing,
  serveRehearsal,
} from '../testing/rehearsal/live-fixture/rehearsal-run.test-helpers.ts'
import {
  type ChildRun,
  FIXTURE_CONFIG,
  ROOT,
  resultsDocumentsIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
} from './child-vitest.test-helpers.ts'
import { writeMissingRecordingDataset } from './plugin/robustness-fixture/missing/missing-recording.test-helpers.ts'
import './shared-child-run-setup.test-helpers.ts'

interface SharedRunSpec {
  /** Vitest's arguments; `dir` is the run's scratch folder (for reporter output files). */
  args: (dir: string) => string[]
  /** The run's own variables, besides its `.env` file and results folder; may write files into `dir` first. */
  env: (dir: string) => Record<string, string>
  /** A loopback service the run talks to, started in the starter's process before the run and closed after it. */
  serve?: () => Promise<{ env: Record<string, string>; close: () => Promise<void> }>
  /** How long a reader waits for the run (default SPAWN_TIMEOUT_MS); its hook's timeout must be longer. */
  waitMs?: number
}

/** How long a reader of the `rehearsal` run waits for it; its readers' hooks wait longer. */
export const REHEARSAL_WAIT_MS = 2 * SPAWN_TIMEOUT_MS

/** The file planted-results.integration.test.ts plants a results.json link to, in a fixtureProjects run. */
export const PLANTED_TARGET = 'someone-elses.json'

/** The sentinel key the `rehearsalRecorded` run records with (its readers check no cassette holds it). */
export const REHEARSAL_KEY = 'sk-test-REHEARSAL-shared-recording-key-3c8e1f20'

/**
 * The shared runs.
 * - `tinyRetried`: the fixture project (src/vitest/fixtures: one wrong-tool scenario, one correct) in the responses
 *   architecture with --retry=1, the standard reporters beside ours (junit, json, blob into `dir`).
 * - `fixtureProjects`: the read-only fixture projects together (src/vitest/fixtures/together), with Vitest's JSON
 *   report in `dir`/report.json, from which each test takes its project's part (fixture-projects.test-helpers.ts);
 *   the files two projects need are written into `dir` first (the planted link's target, the dataset whose
 *   recording is missing).
 * - `rehearsalRecorded`: the fixture project recorded live against the dress-rehearsal server (no key, no internet:
 *   src/testing/rehearsal), both architectures, the judge answering, real-time pacing: cassettes in `dir`/cassettes
 *   (`<scenario>__<architecture>/` and CRAWL's `speech/`), results in `dir`/results. Its readers copy the cassettes
 *   they need into their own scratch before replaying, re-grading or re-recording them.
 * - `rehearsal`: the dress rehearsal, live against a rehearsal server the starter runs: the bundled CRAWL and WALK
 *   suites and CRAWL under fault profiles (src/testing/rehearsal/live-fixture/rehearsal-run.test-helpers.ts).
 */
export const SHARED_RUNS = {
  tinyRetried: {
    args: (dir) => [
      'run',
      '--config',
      FIXTURE_CONFIG,
      '--retry=1',
      '--reporter=default',
      '--reporter=junit',
      '--reporter=json',
      '--reporter=blob',
      `--outputFile.junit=${join(dir, 'junit.xml')}`,
      `--outputFile.json=${join(dir, 'report.json')}`,
      `--outputFile.blob=${join(dir, 'blobs', 'blob.json')}`,
    ],
    env: () => ({ OPENAI_ASSISTANT_MODE: 'responses' }),
  },
  fixtureProjects: {
    args: (dir) => [
      'run',
      '--config',
      'src/vitest/fixtures/together/vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(dir, 'report.json')}`,
    ],
    env: (dir) => {
      writeFileSync(join(dir, PLANTED_TARGET), 'untouched\n')
      return {
        PLANTED_RESULTS_TARGET: join(dir, PLANTED_TARGET),
        MISSING_RECORDING_DATASET: writeMissingRecordingDataset(dir),
      }
    },
  },
  rehearsalRecorded: {
    args: () => ['run', '--config', FIXTURE_CONFIG],
    env: (dir) => ({
      OPENAI_API_KEY: REHEARSAL_KEY,
      LIVE_EVALS_MODE: 'live',
      LIVE_EVALS_RECORD: '1',
      LIVE_EVALS_CASSETTES: join(dir, 'cassettes'),
    }),
    serve: rehearsalServing([join(ROOT, 'src/vitest/fixtures/tiny-dataset.json')]),
    // Real-time calls in both architectures: the readers' hooks wait longer still (4 and 5 spawn timeouts).
    waitMs: REHEARSAL_WAIT_MS,
  },
  rehearsal: {
    args: () => ['run', '--config', REHEARSAL_CONFIG, '-t', REHEARSAL_TEST_FILTER],
    env: prepareRehearsalRun,
    serve: serveRehearsal,
    // Real-time audio: about 50 s alone, longer beside a busy unit run.
    waitMs: REHEARSAL_WAIT_MS,
  },
} satisfies Record<string, SharedRunSpec>

export type SharedRunName = keyof typeof SHARED_RUNS

export interface SharedChildRun extends ChildRun {
  /** The run's scratch folder: `results/` (LIVE_EVALS_RESULTS_DIR), `empty.env`, and the reporters' files. */
  dir: string
}

/**
 * The `rehearsalRecorded` run's cassettes whose id `keep` takes (all by default), with CRAWL's speech, copied into
 * `into`: a reader replays or re-records its own copy, never the shared folder.
 */
export async function copyRecordedCassettes(
  run: SharedChildRun,
  into: string,
  keep: (id: string) => boolean = () => true,
): Promise<void> {
  const from = join(run.dir, 'cassettes')
  await cp(from, into, {
    recursive: true,
    filter: (source) => {
      const [id = ''] = relative(from, source).split(sep)
      return id === '' || id === 'speech' || keep(id)
    },
  })
}

/** The `rehearsalRecorded` run's results document of the responses architecture (what its readers compare with). */
export async function recordedResponsesDocument(run: SharedChildRun): Promise<ResultsDocument | undefined> {
  const documents = await resultsDocumentsIn(join(run.dir, 'results'))
  return [...documents].find(([name]) => name.startsWith('crawl_live_responses_'))?.[1]
}

const RECORD = 'run.json'
/** The starter's pid, so a reader can tell a run still going from one whose starter died. */
const OWNER = 'starter.pid'
const inThisWorker = new Map<SharedRunName, Promise<SharedChildRun>>()

/** The named run, started by the first caller of this test run and waited for by the others. */
export function sharedChildRun(name: SharedRunName): Promise<SharedChildRun> {
  const root = inject('sharedChildRunsDir')
  if (root === undefined) {
    let started = inThisWorker.get(name)
    if (started === undefined) {
      started = mkdtemp(join(tmpdir(), 'live-evals-shared-run-')).then((dir) => runInto(name, dir))
      inThisWorker.set(name, started)
    }
    return started
  }
  return sharedIn(name, join(root, name))
}

async function sharedIn(name: SharedRunName, dir: string): Promise<SharedChildRun> {
  let mine = true
  try {
    mkdirSync(dir)
    writeFileSync(join(dir, OWNER), String(process.pid))
  } catch (error) {
    // Only an existing folder means another test file runs it; anything else is this file's own failure.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    mine = false
  }
  if (mine) return runInto(name, dir)
  // Shorter than the readers' hook timeout (SPAWN_TIMEOUT_MS, or the run's waitMs and more), so this message is the
  // one a reader sees.
  const spec: SharedRunSpec = SHARED_RUNS[name]
  const deadline = Date.now() + (spec.waitMs ?? SPAWN_TIMEOUT_MS) - 10_000
  const record = join(dir, RECORD)
  for (;;) {
    if (existsSync(record)) return { ...(JSON.parse(readFileSync(record, 'utf8')) as ChildRun), dir }
    const starter = starterOf(dir)
    if (starter !== null && !isAlive(starter))
      throw new Error(
        `the shared child run ${name}: its starter (pid ${starter}) ended without a record in ${dir}`,
      )
    if (Date.now() > deadline)
      throw new Error(`the shared child run ${name} did not finish in time in ${dir}`)
    await sleep(250)
  }
}

/** The pid of the process that started the run in `dir`, once it has written it. */
function starterOf(dir: string): number | null {
  try {
    return Number(readFileSync(join(dir, OWNER), 'utf8')) || null
  } catch {
    return null // not written yet
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function runInto(name: SharedRunName, dir: string): Promise<SharedChildRun> {
  const spec: SharedRunSpec = SHARED_RUNS[name]
  const envFile = join(dir, 'empty.env')
  let run: ChildRun
  try {
    writeFileSync(envFile, '')
    const service = await spec.serve?.()
    try {
      run = await runVitest(spec.args(dir), {
        ...service?.env,
        LIVE_EVALS_ENV_FILE: envFile,
        LIVE_EVALS_RESULTS_DIR: join(dir, 'results'),
        ...spec.env(dir),
      })
    } finally {
      await service?.close()
    }
  } catch (error) {
    // The waiting files see the failure too, instead of waiting out their time.
    run = { code: null, output: `the shared child run ${name} could not start: ${String(error)}` }
  }
  // Whole or absent: the waiters read the record once it is there.
  writeFileSync(join(dir, `${RECORD}.partial`), JSON.stringify(run))
  renameSync(join(dir, `${RECORD}.partial`), join(dir, RECORD))
  return { ...run, dir }
}
