// Interrupted runs of a real `vitest run` (the interrupt fixture project, offline): the child runs five
// scenarios one after another, holds the (k+1)-th before its verdict, and is stopped with SIGINT, SIGTERM or
// SIGKILL once its rows journal holds k rows. Whatever stopped it, every finished scenario is in results.json
// (written at the signal, or rebuilt by `live-evals results` after a SIGKILL), the results say they are partial,
// no artifact is cut short and no empty run folder is left.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { readRowsJournal } from '../artifacts/rows-journal-read.ts'
import { captureIO } from '../cli/capture-io.ts'
import { run as rebuildResults } from '../cli/results.ts'
import { loadGateFile } from '../gate/load.ts'
import { ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { SPAWN_TIMEOUT_MS } from './child-vitest.test-helpers.ts'
import {
  emptyFoldersUnder,
  filesUnder,
  INTERRUPT_SCENARIOS,
  killGroup,
  SCRIPT,
  startFixtureRun,
  startFixtureRunOnTerminal,
  truncationProblem,
  waitForHold,
  waitForJournalRows,
  waitForOutput,
} from './interrupt.test-helpers.ts'

async function scratchEnvironment() {
  const dir = await mkdtemp(join(tmpdir(), 'live-evals-interrupt-'))
  const envFile = join(dir, 'empty.env')
  await writeFile(envFile, '')
  const resultsDir = join(dir, 'results')
  const heldFile = join(dir, 'held')
  return {
    resultsDir,
    heldFile,
    env: {
      LIVE_EVALS_ENV_FILE: envFile,
      LIVE_EVALS_RESULTS_DIR: resultsDir,
      OPENAI_ASSISTANT_MODE: 'responses',
      INTERRUPT_FIXTURE_HELD_FILE: heldFile,
    },
  }
}

/**
 * What every stopped run must leave: sound artifacts, no empty folder, and a journal that reads back. `inFlight`
 * names a scenario still being written when the test kills the process group on purpose (a cancelled scenario's
 * failure path records what it saw while the run ends): its files must still be whole (writes are atomic), but
 * the kill may land between creating its folder and renaming its first file into it.
 */
function expectNothingCutShort(resultsDir: string, inFlight: string | null = null): void {
  const problems = filesUnder(resultsDir)
    .filter((file) => !file.endsWith('.tmp'))
    .flatMap((file) => {
      const problem = truncationProblem(file)
      return problem === null ? [] : [`${file}: ${problem}`]
    })
  expect(problems).toEqual([])
  const inFlightFolder = (folder: string) => inFlight !== null && folder.endsWith(`/${inFlight}`)
  expect(emptyFoldersUnder(resultsDir).filter((folder) => !inFlightFolder(folder))).toEqual([])
}

function expectPartialResults(runDir: string, finished: string[], ending: 'interrupted' | 'killed') {
  // The artifact checks have something to check: each finished scenario left its audio and transcripts.
  if (finished.length > 0) {
    expect(filesUnder(runDir).filter((file) => file.endsWith('.wav')).length).toBeGreaterThanOrEqual(
      finished.length,
    )
  }
  const document = ResultsDocumentSchema.parse(JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')))
  expect(document.results.map((row) => row.scenario_id)).toEqual(finished)
  expect(document.results.every((row) => row.status === 'passed')).toBe(true)
  expect(document.run.configuration.live_evals?.completion).toEqual({
    ending,
    finished_rows: finished.length,
    planned_scenarios: INTERRUPT_SCENARIOS.length,
  })
  // The rows are the journal's rows, byte for byte as they were journaled when each scenario finished.
  expect(document.results).toEqual(
    readRowsJournal(runDir).rows.sort((a, b) => String(a.scenario_id).localeCompare(String(b.scenario_id))),
  )
  return document
}

describe('a run stopped by a signal keeps every finished scenario', () => {
  // `vitest run` on a terminal: Ctrl-C sends SIGINT to the whole process group (main process and workers).
  test.each([
    ['SIGINT', 2, 'the main process'],
    ['SIGINT', 1, 'the process group'],
    ['SIGTERM', 1, 'the main process'],
    ['SIGTERM', 3, 'the main process'],
  ] as const)(
    '%s after %i finished rows to %s: results.json written at the signal, marked interrupted',
    { timeout: SPAWN_TIMEOUT_MS },
    async (signal, k, target) => {
      const space = await scratchEnvironment()
      const run = startFixtureRun([], {
        ...space.env,
        INTERRUPT_FIXTURE_HOLD_AT: INTERRUPT_SCENARIOS[k] as string,
      })
      try {
        const runDir = await waitForJournalRows(run, space.resultsDir, k)
        await waitForHold(run, space.heldFile)
        if (target === 'the main process') run.child.kill(signal)
        else process.kill(-(run.child.pid as number), signal)
        await run.exited
        killGroup(run)
        const finished = INTERRUPT_SCENARIOS.slice(0, k)
        expect(run.output()).toContain(
          `live-evals: interrupted; the results of ${k} finished scenario${k === 1 ? '' : 's'} are in ${join(runDir, 'results.json')}`,
        )
        expect(run.output()).toContain(`(marked interrupted); its report: npx live-evals report ${runDir}`)
        expectPartialResults(runDir, finished, 'interrupted')
        expect(readRowsJournal(runDir).end?.reason).toBe('interrupted')
        expect((await loadGateFile(join(runDir, 'results.json'))).partial).toMatch(/was interrupted after/)
        expectNothingCutShort(space.resultsDir)
      } finally {
        killGroup(run)
      }
    },
  )

  test('SIGTERM before any scenario finished: the journal goes, and the held scenario keeps its artifacts', {
    timeout: SPAWN_TIMEOUT_MS,
  }, async () => {
    const space = await scratchEnvironment()
    const run = startFixtureRun([], { ...space.env, INTERRUPT_FIXTURE_HOLD_AT: 'interrupt_1' })
    try {
      const runDir = await waitForJournalRows(run, space.resultsDir, 0)
      run.child.kill('SIGTERM')
      await run.exited
      killGroup(run)
      const left = (await readdir(space.resultsDir)).filter((name) => !name.startsWith('.'))
      // Either the held scenario had written artifacts (the folder stays, with results of no rows) or nothing
      // (the folder is removed); never an empty folder or a journal without its results.
      if (left.length > 0) expectPartialResults(runDir, [], 'interrupted')
      expectNothingCutShort(space.resultsDir)
    } finally {
      killGroup(run)
    }
  })

  // The run after a SIGKILL is the one that names the killed run's rebuild command, and it is itself the SIGKILL
  // before any row finished: two runs in one results folder, where a third child run only to read that line cost
  // another Vitest start.
  test("SIGKILL after 2 finished rows, then after 0 in the same results folder: the second run names the first one's rebuild command, live-evals results rebuilds each", {
    timeout: 2 * SPAWN_TIMEOUT_MS,
  }, async () => {
    const space = await scratchEnvironment()
    /** Runs the fixture until `k` rows are journaled and the next scenario holds, then SIGKILLs it. */
    const killedAfter = async (k: number, earlier: string[]) => {
      const heldFile = `${space.heldFile}-${k}`
      const run = startFixtureRun([], {
        ...space.env,
        INTERRUPT_FIXTURE_HELD_FILE: heldFile,
        INTERRUPT_FIXTURE_HOLD_AT: INTERRUPT_SCENARIOS[k] as string,
      })
      let runDir = ''
      try {
        runDir = await waitForJournalRows(run, space.resultsDir, k, earlier)
        await waitForHold(run, heldFile)
      } finally {
        killGroup(run) // SIGKILL to the main process and its workers at once
      }
      await run.exited
      // Nothing had a chance to write results.json: the journal is all there is.
      await expect(readdir(runDir)).resolves.not.toContain('results.json')
      return { runDir, output: run.output() }
    }
    const afterTwo = await killedAfter(2, [])
    const afterNone = await killedAfter(0, [afterTwo.runDir])
    expect(afterNone.output).toContain(
      `an earlier run did not finish (${afterTwo.runDir}); rebuild its results with: live-evals results ${afterTwo.runDir}`,
    )
    for (const [runDir, k] of [
      [afterTwo.runDir, 2],
      [afterNone.runDir, 0],
    ] as const) {
      const io = captureIO()
      expect(await rebuildResults([runDir], io)).toBe(0)
      expect(io.stdout()).toContain(
        'the run never ended (killed, or still running): these are partial results',
      )
      expectPartialResults(runDir, INTERRUPT_SCENARIOS.slice(0, k), 'killed')
      expect((await loadGateFile(join(runDir, 'results.json'))).partial).toMatch(/was killed after/)
      expect(filesUnder(runDir).filter((file) => file.endsWith('.tmp'))).toEqual([])
    }
    expectNothingCutShort(space.resultsDir)
  })
})

// Ctrl-C on a terminal in watch mode is a key Vitest reads: it cancels the run, and the run ends `interrupted`
// through the reporters (no signal). Needs a terminal, which `script` provides; machines without it skip.
describe.skipIf(!existsSync(SCRIPT))('Ctrl-C on a terminal', () => {
  test('cancels the run; the results of what finished are written, marked interrupted', {
    timeout: SPAWN_TIMEOUT_MS,
  }, async () => {
    const space = await scratchEnvironment()
    const run = startFixtureRunOnTerminal({ ...space.env, INTERRUPT_FIXTURE_HOLD_AT: 'interrupt_3' })
    try {
      const runDir = await waitForJournalRows(run, space.resultsDir, 2)
      await waitForHold(run, space.heldFile)
      run.child.stdin?.write('\u0003')
      await waitForOutput(run, 'Test run cancelled')
      expect(run.output()).toContain(
        `live-evals: interrupted; the results of 2 finished scenarios are in ${join(runDir, 'results.json')}`,
      )
      expectPartialResults(runDir, INTERRUPT_SCENARIOS.slice(0, 2), 'interrupted')
      expect(readRowsJournal(runDir).end?.reason).toBe('interrupted')
      killGroup(run)
      await run.exited
      expectNothingCutShort(space.resultsDir, 'interrupt_3')
    } finally {
      killGroup(run)
    }
  })
})

test('the truncation check sees a cut WAV or JSON file, and passes whole ones', async () => {
  const space = await scratchEnvironment()
  await mkdir(space.resultsDir)
  const pcm = Buffer.alloc(640)
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'latin1')
  header.writeUInt32LE(36 + pcm.length, 4)
  header.write('WAVEfmt ', 8, 'latin1')
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(24_000, 24)
  header.writeUInt32LE(48_000, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36, 'latin1')
  header.writeUInt32LE(pcm.length, 40)
  const wav = Buffer.concat([header, pcm])
  const file = (name: string) => join(space.resultsDir, name)
  await writeFile(file('whole.wav'), wav)
  await writeFile(file('cut.wav'), wav.subarray(0, 300))
  await writeFile(file('whole.json'), '{"a": [1, 2]}')
  await writeFile(file('cut.json'), '{"a": [1,')
  await writeFile(file('empty.json'), '')
  expect(truncationProblem(file('whole.wav'))).toBeNull()
  expect(truncationProblem(file('cut.wav'))).toMatch(/RIFF size/)
  expect(truncationProblem(file('whole.json'))).toBeNull()
  expect(truncationProblem(file('cut.json'))).toMatch(/does not parse/)
  expect(truncationProblem(file('empty.json'))).toBe('empty')
})
