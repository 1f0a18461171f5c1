// Where each planned run writes. Three layouts, chosen by the run name and the shard:
// - no run name: a new timestamped folder `<phase>_<mode>_<architecture>_<time>` (the reference's naming);
// - a run name, not sharded: the folder `<name>_<architecture>`, which must not exist yet;
// - a run name and a shard: the same folder, shared by all shards of the run. Scenario ids are disjoint
//   between shards, so their artifacts sit side by side and the merged results.json written there by
//   `vitest --merge-reports` resolves every artifact path. Each shard writes `results.shard-<i>-of-<n>.json` and
//   claims its place with an empty `.shard-<i>-of-<n>` folder created exclusively, so a shard never runs twice.
import { readdir, rmdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { makePrivateDirectories, reserveRunDirectory } from '../../artifacts/index.ts'
import { makePrivateDirectoryExclusively } from '../../artifacts/private-directories.ts'
import { RESULTS_FILE } from '../../artifacts/results-file-name.ts'
import { RUN_NAME_VARIABLE } from './run-name.ts'
import { RunPlanProblem } from './run-plan-problem.ts'
import { type Shard, shardLabel } from './shard.ts'

export { RESULTS_FILE }

export interface RunDirectoryRequest {
  resultsDir: string
  /** `<phase>_<mode>_<architecture>`: names the folder of a run without a run name. */
  label: string
  architecture: string
  runName: string | null
  shard: Shard | null
  now: Date
}

export interface ClaimedRunDirectory {
  /** Absolute path of the run folder. */
  directory: string
  /** The run's id (results.json `run.id`): the folder's name. */
  name: string
  /** The file this process writes its results to, inside `directory`. */
  resultsFile: string
  /** A shard's claim folder inside the shared run folder; null when the run owns its folder. */
  claim: string | null
}

export async function claimRunDirectory(request: RunDirectoryRequest): Promise<ClaimedRunDirectory> {
  const { runName, shard } = request
  if (runName === null) {
    if (shard !== null) {
      throw new RunPlanProblem(
        `--shard=${shard.index}/${shard.count} needs ${RUN_NAME_VARIABLE}: set it to the same value in every shard ` +
          `(for example ${RUN_NAME_VARIABLE}=nightly-$CI_PIPELINE_ID), so the shards share one run folder and ` +
          '`vitest --merge-reports` knows which shards belong together',
      )
    }
    const reserved = await reserveRunDirectory(request.resultsDir, request.label, request.now)
    return { directory: reserved.path, name: reserved.name, resultsFile: RESULTS_FILE, claim: null }
  }
  const name = `${runName}_${request.architecture}`
  const directory = resolve(request.resultsDir, name)
  if (shard === null) {
    await makePrivateDirectories(request.resultsDir, 'results folder')
    await exclusively(
      directory,
      `run "${runName}" exists already (${directory}); choose another ${RUN_NAME_VARIABLE}`,
    )
    return { directory, name, resultsFile: RESULTS_FILE, claim: null }
  }
  await makePrivateDirectories(directory, 'run folder')
  await refuseForeignShards(directory, runName, shard)
  const label = shardLabel(shard)
  const claim = join(directory, `.shard-${label}`)
  await exclusively(
    claim,
    `shard ${shard.index}/${shard.count} of run "${runName}" ran already (${claim} exists)`,
  )
  return { directory, name, resultsFile: `results.shard-${label}.json`, claim }
}

async function exclusively(path: string, taken: string): Promise<void> {
  try {
    await makePrivateDirectoryExclusively(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new RunPlanProblem(taken)
    throw error
  }
}

/** A shared folder must hold only shards of the same split, and no finished unsharded run. */
async function refuseForeignShards(directory: string, runName: string, shard: Shard): Promise<void> {
  for (const entry of await readdir(directory)) {
    const count = /^\.shard-\d+-of-(\d+)$/.exec(entry)?.[1]
    if (count !== undefined && Number(count) !== shard.count) {
      throw new RunPlanProblem(
        `run "${runName}" was split into ${count} shards (${join(directory, entry)}), not ${shard.count}; ` +
          `use the same --shard count in every shard or another ${RUN_NAME_VARIABLE}`,
      )
    }
    if (entry === RESULTS_FILE && !(await hasShardClaims(directory))) {
      throw new RunPlanProblem(
        `run "${runName}" finished unsharded already (${join(directory, entry)}); choose another ${RUN_NAME_VARIABLE}`,
      )
    }
  }
}

async function hasShardClaims(directory: string): Promise<boolean> {
  return (await readdir(directory)).some((entry) => entry.startsWith('.shard-'))
}

/**
 * Removes what a run reserved but never used (`vitest list`, a `-t` that matched nothing of a run, a run that
 * could not start): a shard's claim when it wrote no results, then the run folder if it is empty. Removal only
 * ever takes an empty folder (rmdir), so anything written, even concurrently, stays. Returns what was removed.
 */
export async function releaseUnusedRunDirectories(
  runs: readonly Pick<ClaimedRunDirectory, 'directory' | 'claim' | 'resultsFile'>[],
): Promise<string[]> {
  const removed: string[] = []
  for (const run of runs) {
    if (run.claim !== null && !(await exists(join(run.directory, run.resultsFile)))) {
      if (await removeIfEmpty(run.claim)) removed.push(run.claim)
    }
    if (await removeIfEmpty(run.directory)) removed.push(run.directory)
  }
  return removed
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}

async function removeIfEmpty(directory: string): Promise<boolean> {
  try {
    await rmdir(directory)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // Not empty: it holds output. Gone already: nothing to release.
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return false
    throw error
  }
}
