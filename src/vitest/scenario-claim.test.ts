import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { CLAIMS_FOLDER } from '../artifacts/claims-folder.ts'
import { claimScenarioTrial, DuplicateScenarioError } from './scenario-claim.ts'

const runFolder = () => mkdtemp(join(tmpdir(), 'live-evals-claim-'))
const first = { specFile: '/project/specs/todo.spec.ts', testId: 'a' }

test('the first test claims a scenario and trial; its own retry goes on', async () => {
  const folder = await runFolder()
  await claimScenarioTrial(folder, 'add_milk', null, first)
  await expect(claimScenarioTrial(folder, 'add_milk', null, first)).resolves.toBeUndefined()
  expect(await readdir(join(folder, CLAIMS_FOLDER))).toEqual(['add_milk.json'])
})

test('another test of the same scenario and trial is refused, naming the scenario and both spec files', async () => {
  const folder = await runFolder()
  await claimScenarioTrial(folder, 'add_milk', null, first)
  const second = claimScenarioTrial(folder, 'add_milk', null, {
    specFile: '/project/specs/todo2.spec.ts',
    testId: 'b',
  })
  await expect(second).rejects.toThrow(DuplicateScenarioError)
  await expect(second).rejects.toThrow(
    /Scenario "add_milk" trial 1 is evaluated twice into one run: \/project\/specs\/todo\.spec\.ts ran it first, so \/project\/specs\/todo2\.spec\.ts does not run it/,
  )
})

test('each trial is claimed on its own', async () => {
  const folder = await runFolder()
  await claimScenarioTrial(folder, 'add_milk', 1, first)
  await claimScenarioTrial(folder, 'add_milk', 2, { ...first, testId: 'a2' })
  await expect(claimScenarioTrial(folder, 'add_milk', 2, { ...first, testId: 'c' })).rejects.toThrow(
    /trial 2 is evaluated twice/,
  )
})

test('the first claim of a run folder makes its private claims folder; the next ones write into it', async () => {
  const folder = await runFolder()
  await claimScenarioTrial(folder, 'add_milk', null, first)
  expect((await stat(join(folder, CLAIMS_FOLDER))).mode & 0o777).toBe(0o700)
  await claimScenarioTrial(folder, 'buy_bread', null, { ...first, testId: 'b' })
  expect((await readdir(join(folder, CLAIMS_FOLDER))).sort()).toEqual(['add_milk.json', 'buy_bread.json'])
})

test('a claim never brings back a run folder a stop removed', async () => {
  const folder = await runFolder()
  await claimScenarioTrial(folder, 'add_milk', null, first)
  await rm(folder, { recursive: true })
  // Removed with its claims folder, as a stop before anything was written removes it (rows-journal-signals.ts).
  await expect(
    claimScenarioTrial(folder, 'buy_bread', null, { ...first, testId: 'b' }),
  ).resolves.toBeUndefined()
  await expect(stat(folder)).rejects.toMatchObject({ code: 'ENOENT' })
})
