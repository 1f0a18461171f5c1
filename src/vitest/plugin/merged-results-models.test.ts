// Merging the shards of a model matrix: each (model, architecture) merges on its own, and its console label names
// the model, as the unsharded run's lines do (console-label.ts); a single-model run keeps the plain architecture.
import { describe, expect, test } from 'vitest'
import { plannedRunFixture } from '../planned-run.test-helpers.ts'
import type { PlannedRun } from '../run-plan-schema.ts'
import { consoleLabel } from './console-label.ts'
import { mergeShardedRuns, type ShardModule } from './merged-results.ts'

/** One model's responses run of the matrix named "matrix" (or of a single-model run). */
function plannedRun(model: string, multiModel: boolean): PlannedRun {
  const run = plannedRunFixture({
    name: multiModel ? `matrix_${model}_responses` : 'matrix_responses',
    resultsFile: 'results.shard-1-of-2.json',
    ...(multiModel ? { matrixModel: model } : {}),
  })
  return { ...run, model, multiModel }
}

function shard(runs: PlannedRun[], index: number): ShardModule {
  return {
    stamp: {
      phase: 'crawl',
      mode: 'offline',
      dataset: '/data/crawl.json',
      runName: 'matrix',
      shard: { index, count: 2 },
      scenarioIds: [],
      runs,
    },
    tests: [],
  }
}

describe('the console label of a run', () => {
  test('model and architecture in a run of several models, the architecture alone otherwise', () => {
    expect(consoleLabel(plannedRun('gpt-live-1.1', true))).toBe('gpt-live-1.1/responses')
    expect(consoleLabel(plannedRun('gpt-live-1', false))).toBe('responses')
    expect(consoleLabel({ architecture: 'client' })).toBe('client') // a stamp from before models
  })
})

describe('merging the shards of a model matrix', () => {
  test('each model merges on its own, labelled by model and architecture', () => {
    const runs = [plannedRun('gpt-live-1', true), plannedRun('gpt-live-1.1', true)]
    const { merged, problems } = mergeShardedRuns([shard(runs, 1), shard(runs, 2)], () => null, {
      shardMarkersOf: () => ({ markers: {} }),
    })
    expect(problems).toEqual([])
    expect(merged.map((run) => [run.label, run.file])).toEqual([
      ['gpt-live-1/responses', '/results/matrix_gpt-live-1_responses/results.json'],
      ['gpt-live-1.1/responses', '/results/matrix_gpt-live-1.1_responses/results.json'],
    ])
  })

  test('a missing shard is named with the same label', () => {
    const { merged, problems } = mergeShardedRuns([shard([plannedRun('gpt-live-1.1', true)], 1)], () => null)
    expect(merged).toEqual([])
    expect(problems).toEqual([
      expect.stringMatching(/^\[gpt-live-1\.1\/responses\] run "matrix": shard 2\/2 missing/),
    ])
    const single = mergeShardedRuns([shard([plannedRun('gpt-live-1', false)], 1)], () => null)
    expect(single.problems).toEqual([
      expect.stringMatching(/^\[responses\] run "matrix": shard 2\/2 missing/),
    ])
  })
})
