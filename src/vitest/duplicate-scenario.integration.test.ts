// A spec file copied beside its original (the same dataset, the same scenarios) evaluates every scenario twice into
// one run. Each scenario runs once, in whichever spec file claims it first; the other's test fails naming the
// scenario and both spec files, before the scenario runs again, so no artifact is overwritten, and the run still
// writes its results.json, its report and its closing lines, with no unhandled error. Which spec file wins is the
// workers' timing, so results.json is marked incomplete (`completion`, ending `duplicate_scenarios`) naming each
// refused scenario and both spec files, and the run's lines and closing line say so.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { SPAWN_TIMEOUT_MS } from './child-vitest.test-helpers.ts'
import { fixtureProjectPart } from './fixture-projects.test-helpers.ts'

const SCENARIOS = ['fixture_hours', 'fixture_wrong_tool']

test('a scenario in two spec files runs once; the second names both files and the run is marked incomplete', {
  timeout: SPAWN_TIMEOUT_MS,
}, async () => {
  // The duplicate project's part of the shared run of the fixture projects (fixture-projects.test-helpers.ts).
  const part = await fixtureProjectPart('duplicate')
  expect(part.run.output).not.toContain('Unhandled')
  expect([...part.files.keys()].sort()).toEqual(['todo.spec.ts', 'todo2.spec.ts'])
  expect(part.runDirectories, part.run.output).toHaveLength(1)
  const folder = part.runDirectories[0] as string

  // Which spec file wins a scenario depends on the workers' timing: each scenario has exactly one refused test.
  const duplicateMessage =
    /Scenario "(\w+)" trial 1 is evaluated twice into one run: (\S+) ran it first, so (\S+) does not run it/
  const refused = part.tests.flatMap((test) => {
    const match = test.failureMessages.map((message) => duplicateMessage.exec(message)).find(Boolean)
    return match == null ? [] : [{ scenario: match[1], first: match[2], second: match[3] }]
  })
  expect(refused.map((entry) => entry.scenario).sort()).toEqual(SCENARIOS)
  for (const { first, second } of refused) {
    expect([first, second].sort()).toEqual([
      'src/vitest/fixtures/duplicate/todo.spec.ts',
      'src/vitest/fixtures/duplicate/todo2.spec.ts',
    ])
  }

  const document = ResultsDocumentSchema.parse(
    JSON.parse(await readFile(join(folder, 'results.json'), 'utf8')),
  )
  expect(document.results.map((row) => row.scenario_id).sort()).toEqual(SCENARIOS)
  const completion = document.run.configuration.live_evals?.completion
  expect(completion?.ending).toBe('duplicate_scenarios')
  expect(
    completion?.duplicate_scenarios?.map(({ scenario_id, trial, ran_in, refused_in }) => ({
      scenario_id,
      trial,
      files: [ran_in, refused_in].sort(),
    })),
  ).toEqual(
    SCENARIOS.map((scenario_id) => ({
      scenario_id,
      trial: 1,
      files: ['src/vitest/fixtures/duplicate/todo.spec.ts', 'src/vitest/fixtures/duplicate/todo2.spec.ts'],
    })),
  )
  expect(part.printedAbout(folder).join('\n')).toContain(
    '[responses] Incomplete: scenarios evaluated by two spec files ran in whichever claimed them first',
  )
  expect(part.run.output).toContain(
    '2 scenario tests were refused because another spec file ran their scenario first, so the results are marked incomplete',
  )
  expect(part.printedAbout(folder)).toContain(
    '[responses] Completed 2/2 valid examples; 1 passed; 1 failed; 0 infrastructure failures.',
  )
  expect(part.run.output).toContain(`Report: ${folder}`)
  // One transcript per scenario, written by the test that ran it.
  expect((await readdir(join(folder, 'transcripts'))).sort()).toEqual(SCENARIOS.map((id) => `${id}.json`))
})
