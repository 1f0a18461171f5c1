// Keeping Vitest's `--shard` while splitting live-evals runs by scenario. Vitest shards whole files, and a phase
// has one spec file, so file sharding would give the whole phase to one shard and nothing to the others (and
// throws "--shard <count> must be a smaller than count of test files"). The plugin leaves `shard` set, so blob
// reports keep their per-shard names (blob-<i>-<n>.json) and other projects are still sharded by file, but
// wraps the sequencer: the spec files of live-evals projects go to every shard, whose run plan then registers
// only that shard's scenarios. `passWithNoTests` is set because a shard may hold no other project's file.
// Every shard then reports the same spec file, and Vitest identifies a file by its path and project, so
// `--merge-reports` would keep one shard's copy of it: the shard goes into Vitest's merge-reports label (the
// option Vitest has for running the same files several times and merging them), which makes the ids distinct.
import type { TestSequencerConstructor, TestSpecification, Vitest } from 'vitest/node'

const WRAPPED = Symbol.for('live-evals:scenario-shard-sequencer')

type Sequencer = InstanceType<TestSequencerConstructor>

export function splitShardsByScenario(
  vitest: Vitest,
  isLiveEvalsSpec: (spec: TestSpecification) => boolean,
): void {
  const config = vitest.config
  if (config.shard === undefined) return
  config.passWithNoTests = true
  labelFilesWithShard(vitest, `shard-${config.shard.index}-of-${config.shard.count}`)
  const Base = config.sequence.sequencer
  if ((Base as unknown as Record<symbol, unknown>)[WRAPPED] === true) return
  class ScenarioShardSequencer implements Sequencer {
    static readonly [WRAPPED] = true
    readonly #base: Sequencer

    constructor(ctx: Vitest) {
      this.#base = new Base(ctx)
    }

    async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
      const everyShard = files.filter(isLiveEvalsSpec)
      const others = files.filter((spec) => !isLiveEvalsSpec(spec))
      return [...everyShard, ...(others.length === 0 ? [] : await this.#base.shard(others))]
    }

    sort(files: TestSpecification[]): ReturnType<Sequencer['sort']> {
      return this.#base.sort(files)
    }
  }
  config.sequence.sequencer = ScenarioShardSequencer
}

function labelFilesWithShard(vitest: Vitest, shardLabel: string): void {
  const given = vitest.config.mergeReportsLabel
  if (given?.endsWith(shardLabel)) return
  const label = given === undefined || given === '' ? shardLabel : `${given}-${shardLabel}`
  vitest.config.mergeReportsLabel = label
  // Projects copied the root's label when they were resolved; test files take their project's.
  for (const project of vitest.projects) project.config.mergeReportsLabel = label
}
