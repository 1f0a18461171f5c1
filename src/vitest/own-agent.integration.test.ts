// A team's own project, in a child Vitest (the shared run of the fixture projects): spec files that name their own
// dataset, write inline scenarios and bring their own assistant (two tools over its own state, scripted offline
// rules), run offline into one results.json per architecture without duplicate rows; an inline scenario that breaks
// the contract fails its spec file naming the file and the JSON path, and the other spec still runs.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { loadGateFile } from '../gate/load.ts'
import { type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { type ChildRun, SPAWN_TIMEOUT_MS } from './child-vitest.test-helpers.ts'
import { type FixtureProjectPart, fixtureProjectPart } from './fixture-projects.test-helpers.ts'

const OWN_AGENT_FIXTURES = 'src/vitest/fixtures/own-agent'

/** The results.json of each run folder, validated. */
function documentsOf(runDirectories: string[]): Promise<ResultsDocument[]> {
  return Promise.all(
    runDirectories.map(async (directory) =>
      ResultsDocumentSchema.parse(JSON.parse(await readFile(join(directory, 'results.json'), 'utf8'))),
    ),
  )
}

describe('own scenarios and an own assistant in spec files', () => {
  let run: ChildRun = { code: null, output: '' }
  let documents: ResultsDocument[] = []
  let runDirectories: string[] = []
  // What the run printed about this project's run folders.
  let printed: string[] = []
  let ownFiles = new Map<string, { status: string }>()

  beforeAll(async () => {
    // The own-agent project's part of the shared run of the fixture projects (fixture-projects.test-helpers.ts).
    const part = await fixtureProjectPart('own-agent')
    run = part.run
    runDirectories = part.runDirectories
    printed = runDirectories.flatMap((directory) => part.printedAbout(directory))
    documents = await documentsOf(runDirectories)
    ownFiles = part.files
  }, SPAWN_TIMEOUT_MS)

  test('every spec’s scenarios are rows once, in both architectures, and pass', () => {
    expect(
      [...ownFiles.values()].map((file) => file.status),
      run.output,
    ).toEqual(['passed', 'passed'])
    expect(documents.map((document) => document.run.configuration.assistant_mode).sort()).toEqual([
      'client',
      'responses',
    ])
    for (const document of documents) {
      expect(document.results.map((row) => row.scenario_id).sort()).toEqual([
        'fixture_hours',
        'pharmacy_hours',
        'refill_4417',
      ])
      expect(document.summary).toEqual({ total: 3, passed: 3, failed: 0, infrastructure_errors: 0 })
    }
    for (const architecture of ['responses', 'client'])
      expect(printed).toContain(
        `[${architecture}] Completed 3/3 valid examples; 3 passed; 0 failed; 0 infrastructure failures.`,
      )
  })

  test('run.dataset names a source and the run lists every source of its scenarios', () => {
    for (const document of documents) {
      const datasets = (document.run.configuration.live_evals as { datasets?: string[] } | undefined)
        ?.datasets
      // Named relative to the project, as results.json names every file.
      expect([...(datasets ?? [])].sort()).toEqual([
        `${OWN_AGENT_FIXTURES}/hours-dataset.json`,
        `${OWN_AGENT_FIXTURES}/refills.spec.ts`,
      ])
      expect(datasets).toContain(document.run.dataset)
    }
  })

  test('each row names the assistant its spec file ran, and the run names both', () => {
    for (const document of documents) {
      const assistantOf = (id: string) =>
        document.results.find((row) => row.scenario_id === id)?.observability?.live_evals?.assistant
      // hours.spec.ts names no assistant (the bundled restaurant example); refills.spec.ts brings its own.
      expect(assistantOf('fixture_hours')).toBe('juniper-table')
      expect(assistantOf('refill_4417')).toBe('maple-pharmacy')
      expect(assistantOf('pharmacy_hours')).toBe('maple-pharmacy')
      const listed = (document.run.configuration.live_evals as { assistants?: string[] } | undefined)
        ?.assistants
      expect([...(listed ?? [])].sort()).toEqual(['juniper-table', 'maple-pharmacy'])
      // The console's closing lines name them as results.json lists them.
      expect(printed).toContain(
        `[${document.run.configuration.assistant_mode}] Assistants under test: ${listed?.join(', ')}.`,
      )
    }
  })

  test('the report names the run’s assistants and each scenario’s', async () => {
    for (const directory of runDirectories) {
      const page = await readFile(join(directory, 'report.html'), 'utf8')
      expect(page).toMatch(/assistants under test: <b>[a-z-]+<\/b>, <b>[a-z-]+<\/b>/)
      expect(page).toContain('assistant under test: <b>maple-pharmacy</b>')
      expect(page).toContain('assistant under test: <b>juniper-table</b>')
    }
  })

  test('the own assistant’s tools changed its own state, and the row saw it', () => {
    for (const document of documents) {
      const refill = document.results.find((row) => row.scenario_id === 'refill_4417')
      expect(refill?.metrics.task.tool_calls).toEqual({ actual: 1, expected: 1 })
      expect(refill?.assessment?.checks.filter((check) => check.status === 'failed')).toEqual([])
    }
  })
})

describe('an inline scenario that breaks the contract', () => {
  // The broken-inline project's part of the same shared run: broken.spec.ts beside a hours.spec.ts that is fine.
  let part: FixtureProjectPart
  let documents: ResultsDocument[] = []

  beforeAll(async () => {
    part = await fixtureProjectPart('own-agent/broken')
    documents = await documentsOf(part.runDirectories)
  }, SPAWN_TIMEOUT_MS)

  test('fails its spec file naming the file, the scenario and the JSON path; the other spec still runs', () => {
    const broken = part.files.get('broken.spec.ts')
    expect(broken?.status).toBe('failed')
    expect(broken?.message).toContain('own-agent/broken/broken.spec.ts: 1 problem')
    expect(broken?.message).toContain('scenarios[0].expected.tools.required[0].name [scenario broken_refill]')
    expect(part.files.get('hours.spec.ts')?.status).toBe('passed')
    expect(documents).toHaveLength(1)
    expect(documents[0]?.results.map((row) => row.scenario_id)).toEqual(['fixture_hours'])
  })

  test('its run is marked incomplete, naming the spec file and its error, and the gate refuses it', async () => {
    const file = 'src/vitest/fixtures/own-agent/broken/broken.spec.ts'
    expect(documents[0]?.run.configuration.live_evals?.completion).toEqual({
      ending: 'spec_files_failed',
      finished_rows: 1,
      planned_scenarios: 1,
      failed_spec_files: [{ file, error: expect.stringContaining('broken.spec.ts: 1 problem') }],
    })
    expect(part.printedAbout(part.runDirectories[0] ?? '')).toContainEqual(
      expect.stringMatching(
        /^\[\w+\] Incomplete: src\/vitest\/fixtures\/own-agent\/broken\/broken\.spec\.ts failed/,
      ),
    )
    // The closing line of the whole run names it (with the other fixture projects' failing spec files).
    expect(part.run.output).toMatch(
      new RegExp(
        `\\d+ passed, \\d+ failed; \\d+ spec files failed before their scenarios ran \\([^)]*${file}`,
      ),
    )
    const gated = await loadGateFile(join(part.runDirectories[0] ?? '', 'results.json'))
    expect(gated.partial).toContain(`failed before its scenarios ran: ${file} (`)
  })
})
