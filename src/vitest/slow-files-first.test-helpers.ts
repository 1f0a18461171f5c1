// The test sequencer of this repository's vitest.config.ts. Vitest runs the files it timed before longest first,
// and files it never ran (a fresh clone, CI) largest first, which puts the short files that spawn processes (child
// Vitest runs, the packed-package tests) or wait on real time last: one of them then runs alone while the other
// workers idle. Here every file is taken for as long as Vitest last timed it, else for the wall time recorded for
// it in test-durations.test.json (test-durations.test-helpers.ts; written by `npx node bench/test-cpu.ts
// --durations src/vitest/test-durations.test.json`, which keeps the entries pinned there by hand), and files
// neither knows by what they do: those that spawn child Vitest runs first, then the package tests (by then the
// global setup's background build is done), then the rest as Vitest orders them. The files then go to the pool
// longest first, with the files that mostly wait kept spread out (worker-schedule.test-helpers.ts). Files that
// failed last time still run first. A stale or missing entry only changes the order, never what runs.
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { durationsOf, readTestDurations } from './test-durations.test-helpers.ts'
import { type FileEstimate, WAITING_CPU_SHARE, workerOrder } from './worker-schedule.test-helpers.ts'

const SPAWNS_VITEST = /child-vitest\.test-helpers\.ts'|node_modules\/vitest\/vitest\.mjs/
const USES_PACKAGE = /from '\.\/(consumer-project|shared-package)\.test-helpers\.ts'/
/** What a file the durations list does not know is taken to last, by what it does (seconds). */
const GUESSED_SECONDS = { spawnsVitest: 20, usesPackage: 10, other: 0 }

/** What the repository recorded per file (repository-relative paths, seconds). */
export interface RecordedTimes {
  /** Wall time: as pinned, else as measured. */
  wall: Record<string, number>
  /** CPU time, when measured. */
  cpu: Record<string, number>
}

/** The repository's recorded times; none when the file is missing or unreadable (only the order changes). */
export function recordedTimes(): RecordedTimes {
  try {
    const document = readTestDurations()
    return { wall: durationsOf(document), cpu: document.cpu_seconds }
  } catch {
    return { wall: {}, cpu: {} }
  }
}

function guessedSeconds(spec: TestSpecification): number {
  const source = readFileSync(spec.moduleId, 'utf8')
  if (USES_PACKAGE.test(source)) return GUESSED_SECONDS.usesPackage
  if (spec.moduleId.endsWith('.integration.test.ts') || SPAWNS_VITEST.test(source)) {
    return GUESSED_SECONDS.spawnsVitest
  }
  return GUESSED_SECONDS.other
}

export default class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order groups the files by project (projects run one after another) and puts failed files first.
    const ordered = await super.sort(files)
    const recorded = this.recorded()
    const root = this.ctx.config.root
    const workers = Number(this.ctx.config.maxWorkers) || availableParallelism()
    const waitingSlots = Math.max(1, workers - availableParallelism())
    const timed = new Map(ordered.map((spec) => [spec, this.ctx.cache.getTestSpecificationResult(spec)]))
    const estimate = (spec: TestSpecification): FileEstimate<TestSpecification> => {
      const file = relative(root, spec.moduleId)
      const timedMs = timed.get(spec)?.duration
      const wall = recorded.wall[file]
      const cpu = recorded.cpu[file]
      return {
        file: spec,
        wallSeconds: timedMs !== undefined ? timedMs / 1000 : (wall ?? guessedSeconds(spec)),
        waits: wall !== undefined && cpu !== undefined && cpu < wall * WAITING_CPU_SHARE,
      }
    }
    const result: TestSpecification[] = []
    for (const group of projectGroups(ordered)) {
      const failed = group.filter((spec) => timed.get(spec)?.failed === true)
      const rest = group.filter((spec) => timed.get(spec)?.failed !== true)
      result.push(...failed, ...workerOrder(rest.map(estimate), workers, waitingSlots))
    }
    return result
  }

  /** The recorded wall and CPU times (a test gives its own). */
  protected recorded(): RecordedTimes {
    return recordedTimes()
  }
}

/** Runs of consecutive files of the same project, in order. */
function projectGroups(files: readonly TestSpecification[]): TestSpecification[][] {
  const groups: TestSpecification[][] = []
  for (const spec of files) {
    const last = groups.at(-1)
    if (last !== undefined && last[0]?.project.name === spec.project.name) last.push(spec)
    else groups.push([spec])
  }
  return groups
}
