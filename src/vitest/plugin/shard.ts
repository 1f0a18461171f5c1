// The scenario-level split of a sharded run. Vitest shards whole test files, and a phase has one spec file, so
// live-evals splits the selected scenarios instead: every shard registers the same spec file and only its own
// contiguous block of scenarios, in dataset order. Blocks differ in size by at most one, and concatenating the
// blocks of shards 1..n gives the unsharded selection back, which is what lets merged reports equal it.
import { z } from 'zod'

export const ShardSchema = z
  .strictObject({
    /** 1-based, as on the command line (`--shard=2/3` is index 2). */
    index: z.int().min(1),
    count: z.int().min(1),
  })
  .refine((shard) => shard.index <= shard.count, { error: 'shard index must not exceed the shard count' })

export type Shard = z.infer<typeof ShardSchema>

/** The items shard `index` of `count` runs; the whole list when the run is not sharded. */
export function itemsOfShard<T>(items: readonly T[], shard: Shard | null): T[] {
  if (shard === null) return [...items]
  const base = Math.floor(items.length / shard.count)
  const larger = items.length % shard.count
  // The first `larger` shards take one item more.
  const start = (shard.index - 1) * base + Math.min(shard.index - 1, larger)
  const size = base + (shard.index <= larger ? 1 : 0)
  return items.slice(start, start + size)
}

/** `2-of-3`: how a shard names its files. */
export function shardLabel(shard: Shard): string {
  return `${shard.index}-of-${shard.count}`
}
