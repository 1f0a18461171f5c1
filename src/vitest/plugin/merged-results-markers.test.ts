// Merging the shards of one run keeps what each shard's own results document says about itself: a spec file that
// failed to load in one shard, or a filter in any, marks the merged results.json, so the gate refuses it as it
// would the unsharded run. Two shards that ran one scenario (they cannot see each other's claims) merge into its
// first row and a line naming the second, never an uncaught error.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { FinishedScenarioTest } from '../../../reporters/run-results.ts'
import { resultsDocument, row } from '../../gate/gate.test-helpers.ts'
import { EXTENSION_KEY } from '../../reporting/extensions/registry.ts'
import { withRunExtensions } from '../../reporting/results-document.ts'
import type { LiveEvalsTaskMeta } from '../meta.ts'
import { plannedRunFixture } from '../planned-run.test-helpers.ts'
import { mergeShardedRuns, type ShardModule } from './merged-results.ts'
import {
  combineShardMarkers,
  readShardMarkers,
  type ShardMarkers,
  type ShardMarkersRead,
} from './shard-markers.ts'

const run = { ...plannedRunFixture({ name: 'nightly_responses', resultsFile: 'results.shard-1-of-2.json' }) }

/** A finished scenario test of the run (no sealed row: it becomes the scenario's infrastructure_error row). */
const ran = (scenarioId: string): FinishedScenarioTest => ({
  name: scenarioId,
  state: 'failed',
  meta: { runDirectory: run.directory, scenarioId, row: null } as LiveEvalsTaskMeta,
  errors: ['boom'],
})

function shard(index: number, tests: FinishedScenarioTest[]): ShardModule {
  return {
    stamp: {
      phase: 'crawl',
      mode: 'offline',
      dataset: '/data/crawl.json',
      runName: 'nightly',
      shard: { index, count: 2 },
      scenarioIds: ['a', 'b', 'c'],
      runs: [{ ...run, resultsFile: `results.shard-${index}-of-2.json` }],
    },
    tests,
  }
}

const shards = [shard(1, [ran('a'), ran('b')]), shard(2, [ran('c')])]
const markersByFile =
  (byShard: Record<string, ShardMarkers | null>) =>
  (planned: { resultsFile: string }): ShardMarkersRead => {
    const markers = planned.resultsFile in byShard ? byShard[planned.resultsFile] : {}
    return markers === null || markers === undefined ? { unknown: 'cannot be read (ENOENT)' } : { markers }
  }

describe('merging shard documents', () => {
  test("one shard's failed spec file and another's selection carry over to the merged document", () => {
    const failed = { file: 'specs/crawl/broken.spec.ts', error: 'Cannot find dataset' }
    const { merged, problems } = mergeShardedRuns(shards, () => null, {
      shardMarkersOf: markersByFile({
        'results.shard-1-of-2.json': {
          completion: { ending: 'spec_files_failed', failed_spec_files: [failed] },
        },
        'results.shard-2-of-2.json': {
          selection: {
            selected_scenarios: 1,
            offered_scenarios: 3,
            test_name_filter: 'c',
            tags_filter: [],
            spec_files_left_out: [],
          },
        },
      }),
    })
    expect(problems).toEqual([])
    const block = merged[0]?.document.run.configuration[EXTENSION_KEY]
    expect(block?.completion).toEqual({
      ending: 'spec_files_failed',
      finished_rows: 3,
      planned_scenarios: 3,
      failed_spec_files: [failed],
    })
    expect(block?.selection).toMatchObject({
      selected_scenarios: 3,
      offered_scenarios: 3,
      test_name_filter: 'c',
    })
  })

  test("every shard's refused duplicates carry over, and lost spec files name the ending before them", () => {
    const duplicate = (scenario_id: string, refused_in: string) => ({
      scenario_id,
      trial: 1,
      ran_in: 'specs/a.spec.ts',
      refused_in,
    })
    const merged = combineShardMarkers(
      [
        {
          completion: {
            ending: 'duplicate_scenarios',
            duplicate_scenarios: [duplicate('x', 'specs/b.spec.ts')],
          },
        },
        {
          completion: {
            ending: 'spec_files_failed',
            failed_spec_files: [{ file: 'specs/c.spec.ts', error: 'boom' }],
            duplicate_scenarios: [duplicate('y', 'specs/d.spec.ts')],
          },
        },
      ],
      { rows: 2, scenarios: 4, selected: 2 },
    )
    expect(merged.completion).toEqual({
      ending: 'spec_files_failed',
      finished_rows: 2,
      planned_scenarios: 4,
      failed_spec_files: [{ file: 'specs/c.spec.ts', error: 'boom' }],
      duplicate_scenarios: [duplicate('x', 'specs/b.spec.ts'), duplicate('y', 'specs/d.spec.ts')],
    })
  })

  test("a trials run's selection counts the merged run's (scenario, trial) pairs", () => {
    const byTrial = {
      selected_scenarios: 2,
      offered_scenarios: 2,
      selected_trials: 2,
      offered_trials: 6,
      test_name_filter: 'trial 1\\/',
      tags_filter: [],
      spec_files_left_out: [],
    }
    const merged = combineShardMarkers([{ selection: byTrial }, {}], { rows: 3, scenarios: 3, selected: 3 })
    expect(merged.selection).toEqual({
      ...byTrial,
      selected_scenarios: 3,
      offered_scenarios: 3,
      selected_trials: 3,
      offered_trials: 9,
    })
  })

  test("a trials run stopped in one shard: the merged marker counts the merged run's planned trials", () => {
    const stopped = {
      ending: 'interrupted' as const,
      finished_rows: 20,
      planned_scenarios: 2,
      planned_trials: 60,
    }
    const merged = combineShardMarkers([{ completion: stopped }, {}], { rows: 50, scenarios: 3, selected: 3 })
    expect(merged.completion).toEqual({
      ending: 'interrupted',
      finished_rows: 50,
      planned_scenarios: 3,
      planned_trials: 90,
    })
  })

  test('shards that carry no marker merge into a document without one', () => {
    const { merged } = mergeShardedRuns(shards, () => null, { shardMarkersOf: markersByFile({}) })
    expect(merged[0]?.document.run.configuration[EXTENSION_KEY]?.completion).toBeUndefined()
    expect(merged[0]?.document.run.configuration[EXTENSION_KEY]?.selection).toBeUndefined()
  })

  test('a shard document that cannot be read is named, its markers unknown', () => {
    const { problems } = mergeShardedRuns(shards, () => null, {
      shardMarkersOf: markersByFile({ 'results.shard-2-of-2.json': null }),
    })
    expect(problems).toEqual([
      expect.stringMatching(/shard 2-of-2's .*results\.shard-2-of-2\.json cannot be read/),
    ])
  })

  test('a scenario two shards both ran keeps the first row, names the second and marks the merge incomplete', () => {
    const inFile = (test: FinishedScenarioTest, specFile: string) => ({ ...test, specFile })
    const twice = [
      shard(
        1,
        [ran('a'), ran('b')].map((test) => inFile(test, '/project/specs/one.spec.ts')),
      ),
      shard(
        2,
        [ran('b'), ran('c')].map((test) => inFile(test, '/project/specs/two.spec.ts')),
      ),
    ]
    const { merged, problems } = mergeShardedRuns(twice, () => null, {
      shardMarkersOf: markersByFile({}),
      projectRoot: '/project',
    })
    expect(merged[0]?.document.results.map((result) => result.scenario_id)).toEqual(['a', 'b', 'c'])
    expect(problems).toEqual([
      expect.stringContaining('scenario "b" trial 1 has a second row in shard 2-of-2 (after shard 1-of-2)'),
    ])
    // As the same run unsharded would be: the gate refuses it, naming both spec files.
    expect(merged[0]?.document.run.configuration.live_evals?.completion).toMatchObject({
      ending: 'duplicate_scenarios',
      duplicate_scenarios: [
        { scenario_id: 'b', trial: 1, ran_in: 'specs/one.spec.ts', refused_in: 'specs/two.spec.ts' },
      ],
    })
  })
})

describe('reading a shard document (parseResultsDocument, as every reader of results.json)', () => {
  let folder = ''
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'live-evals-shard-markers-'))
  })
  afterEach(() => rmSync(folder, { recursive: true, force: true }))

  const shardFile = { resultsFile: 'results.shard-1-of-2.json' }
  const write = (value: unknown) =>
    writeFileSync(
      join(folder, shardFile.resultsFile),
      typeof value === 'string' ? value : JSON.stringify(value),
    )
  const read = () => readShardMarkers({ directory: folder, ...shardFile })

  test("takes a shard's selection from its document", () => {
    const document = resultsDocument([row({ id: 'a' })])
    const selection = {
      selected_scenarios: 1,
      offered_scenarios: 3,
      test_name_filter: 'a',
      tags_filter: [],
      spec_files_left_out: [],
    }
    write({ ...document, run: withRunExtensions(document.run, { selection }) })
    expect(read()).toEqual({ markers: { selection } })
  })

  test("an older live-evals' `interrupted: true` still stops the merge early", () => {
    const document = resultsDocument([row({ id: 'a' })])
    const run = {
      ...document.run,
      configuration: {
        ...document.run.configuration,
        [EXTENSION_KEY]: { version: '1.0', interrupted: true },
      },
    }
    write({ ...document, run })
    expect(read()).toEqual({ markers: { completion: { ending: 'interrupted' } } })
    expect(
      combineShardMarkers([{ completion: { ending: 'interrupted' } }], {
        rows: 1,
        scenarios: 3,
        selected: 1,
      }),
    ).toEqual({
      completion: { ending: 'interrupted', finished_rows: 1, planned_scenarios: 3 },
    })
  })

  test('a missing, cut or edited shard document is unknown, with why, and the merge names it', () => {
    expect(read()).toEqual({ unknown: 'cannot be read (ENOENT)' })
    write('{"schema_version": "2.0", "run": {')
    expect(read()).toEqual({ unknown: expect.stringMatching(/^is not JSON \(/) })
    const document = resultsDocument([row({ id: 'a' })])
    write({ ...document, summary: { ...document.summary, total: 2 } })
    expect(read()).toEqual({ unknown: expect.stringContaining('summary.total is 2 but the rows count 1') })
    const inFolder = shards.map((each) => ({
      ...each,
      stamp: { ...each.stamp, runs: each.stamp.runs.map((planned) => ({ ...planned, directory: folder })) },
    }))
    const { merged, problems } = mergeShardedRuns(inFolder, () => null)
    expect(merged).toHaveLength(1)
    expect(problems).toEqual([
      expect.stringContaining(
        `shard 1-of-2's ${join(folder, 'results.shard-1-of-2.json')} summary.total is 2 but the rows count 1`,
      ),
      expect.stringContaining(
        `shard 2-of-2's ${join(folder, 'results.shard-2-of-2.json')} cannot be read (ENOENT)`,
      ),
    ])
  })
})
