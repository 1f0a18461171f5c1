// A symbolic link planted at results.json while a run goes on (issue 23, point 7): the reporter refuses it by
// name, leaves the link's target alone, and writes the run's results beside it; no unhandled error, no lost run.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { SPAWN_TIMEOUT_MS } from './child-vitest.test-helpers.ts'
import { fixtureProjectPart } from './fixture-projects.test-helpers.ts'
import { PLANTED_TARGET } from './shared-child-run.test-helpers.ts'

test('the results are written beside a planted results.json link, which is named and not followed', {
  timeout: SPAWN_TIMEOUT_MS,
}, async () => {
  // The planted project's part of the shared run of the fixture projects (fixture-projects.test-helpers.ts); its
  // spec plants the link to PLANTED_RESULTS_TARGET, a file the shared run wrote before it started.
  const part = await fixtureProjectPart('planted')
  expect(part.run.output).not.toContain('Unhandled')
  expect(part.runDirectories, part.run.output).toHaveLength(1)
  const folder = part.runDirectories[0] as string
  const printed = part.printedAbout(folder)
  expect(printed).toContainEqual(expect.stringContaining('"results.json"'))
  expect(printed).toContainEqual(expect.stringContaining('symbolic link'))
  expect(printed).toContain(
    `live-evals: the results were written beside it instead: ${join(folder, 'results.recovered.json')}`,
  )
  expect(printed).toContain(
    '[responses] Completed 2/2 valid examples; 1 passed; 1 failed; 0 infrastructure failures.',
  )
  expect(part.tests.map((test) => test.status).sort()).toEqual(['failed', 'passed'])
  expect(await readFile(join(part.run.dir, PLANTED_TARGET), 'utf8')).toBe('untouched\n')
  expect(await readdir(folder)).toContain('results.recovered.json')
  const document = ResultsDocumentSchema.parse(
    JSON.parse(await readFile(join(folder, 'results.recovered.json'), 'utf8')),
  )
  expect(document.results.map((row) => row.scenario_id).sort()).toEqual([
    'fixture_hours',
    'fixture_wrong_tool',
  ])
})
