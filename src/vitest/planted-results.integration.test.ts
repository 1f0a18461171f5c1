// A symbolic link planted at results.json while a run goes on (issue 23, point 7): the reporter refuses it by
// name, leaves the link's target alone, and writes the run's results beside it; no unhandled error, no lost run.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { runDirectoriesIn, runVitest, SPAWN_TIMEOUT_MS, scratch } from './child-vitest.ts'

test('the results are written beside a planted results.json link, which is named and not followed', {
  timeout: SPAWN_TIMEOUT_MS,
}, async () => {
  const space = await scratch()
  try {
    const target = join(space.dir, 'someone-elses.json')
    await writeFile(target, 'untouched\n')
    const run = await runVitest(['run', '--config', 'src/vitest/fixtures/planted/vitest.config.ts'], {
      ...space.env,
      OPENAI_ASSISTANT_MODE: 'responses',
      PLANTED_RESULTS_TARGET: target,
    })
    expect(run.output).not.toContain('Unhandled')
    expect(run.output).toContain('"results.json"')
    expect(run.output).toContain('symbolic link')
    expect(run.output).toContain('the results were written beside it instead')
    expect(run.output).toContain('1 passed, 1 failed')
    expect(await readFile(target, 'utf8')).toBe('untouched\n')
    const [runName] = await runDirectoriesIn(join(space.dir, 'results'))
    const folder = join(space.dir, 'results', runName as string)
    expect(await readdir(folder)).toContain('results.recovered.json')
    const document = ResultsDocumentSchema.parse(
      JSON.parse(await readFile(join(folder, 'results.recovered.json'), 'utf8')),
    )
    expect(document.results.map((row) => row.scenario_id).sort()).toEqual([
      'fixture_hours',
      'fixture_wrong_tool',
    ])
  } finally {
    await rm(space.dir, { recursive: true, force: true })
  }
})
