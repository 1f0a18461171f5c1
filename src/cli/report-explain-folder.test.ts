// An explain folder beside the runs (`<run id>-explained_<time>/`, written by `live-evals explain`) is not a run:
// the README's loop `for run in results/crawl/*/; do npx live-evals report "$run"; done` meets it, and `report`
// says what it is and exits 0 instead of failing on its missing results.json; `gate --latest` never takes it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { resultsDocument, row } from '../gate/gate.test-helpers.ts'
import { writeSampleRun } from '../report/report.test-helpers.ts'
import { captureIO } from './capture-io.ts'
import { run as gate } from './gate.ts'
import { run as report } from './report.ts'

const RUN = 'crawl_offline_client_20261201_000100_000Z'
let results = ''
let explained = ''
beforeEach(async () => {
  results = await mkdtemp(join(tmpdir(), 'live-evals-explain-folder-'))
  explained = join(results, `${RUN}-explained_20261201_000900_000Z`)
  await mkdir(explained)
  await writeFile(join(explained, 'explain.json'), '{}')
  await writeFile(join(explained, 'explain.md'), '# explained')
  vi.stubEnv('GITHUB_STEP_SUMMARY', '')
})
afterEach(async () => {
  vi.unstubAllEnvs()
  await rm(results, { recursive: true, force: true })
})

test('report skips an explain folder with one line naming the run it explains, and exits 0', async () => {
  const io = captureIO()
  expect(await report([`${explained}/`], io)).toBe(0)
  expect(io.stderr()).toBe('')
  expect(io.stdout()).toBe(
    `skipped ${explained}/: an explain folder of run ${RUN}, not a run (its findings are in that run's report.html)\n`,
  )
})

test('report writes the run named beside an explain folder as if the folder were absent', async () => {
  const run = join(results, RUN)
  await mkdir(run)
  await writeSampleRun(run)
  const io = captureIO()
  expect(await report([run, explained], io)).toBe(0)
  expect(io.stdout()).toContain(`skipped ${explained}: an explain folder of run ${RUN}`)
  expect(io.stdout()).toContain(join(run, 'report.html'))
})

test('gate --latest never takes an explain folder for a run', async () => {
  const alone = captureIO()
  expect(await gate(['--latest', results, '--min-pass-rate', '1'], alone)).toBe(2)
  expect(alone.stderr()).toContain('holds no finished run')
  const run = join(results, RUN)
  await mkdir(run)
  await writeFile(join(run, 'results.json'), JSON.stringify(resultsDocument([row({ id: 'a' })])))
  const io = captureIO()
  expect(await gate(['--latest', results, '--min-pass-rate', '1'], io)).toBe(0)
  expect(io.stdout()).toContain(`latest crawl/client: ${join(run, 'results.json')}\n`)
  expect(io.stdout()).not.toContain('explained_')
})
