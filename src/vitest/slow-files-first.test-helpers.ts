// The test sequencer of this repository's vitest.config.ts. Vitest runs the files it timed before longest first,
// and files it never ran (a fresh clone, CI) largest first, which puts the short files that spawn processes (child
// Vitest runs, the packed-package tests) or wait on real time last: one of them then runs alone while the other
// workers idle. Files it has no time for are ordered here by the wall time recorded for them in
// test-durations.test.json (test-durations.test-helpers.ts; written by `npx node bench/test-cpu.ts --durations
// src/vitest/test-durations.test.json`, which keeps the entries pinned there by hand), and files that list does
// not know by what they do: those that spawn child Vitest runs first, then the package tests
// (by then the global setup's background build is done), then the rest as Vitest orders them. A stale or missing
// entry only changes the order, never what runs.
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { durationsOf, readTestDurations } from './test-durations.test-helpers.ts'

const SPAWNS_VITEST = /child-vitest\.test-helpers\.ts'|node_modules\/vitest\/vitest\.mjs/
const USES_PACKAGE = /from '\.\/(consumer-project|shared-package)\.test-helpers\.ts'/
/** What a file the durations list does not know is taken to last, by what it does (seconds). */
const GUESSED_SECONDS = { spawnsVitest: 20, usesPackage: 10, other: 0 }

/** The repository's recorded durations; none when the file is missing or unreadable (only the order changes). */
export function recordedDurations(): Record<string, number> {
  try {
    return durationsOf(readTestDurations())
  } catch {
    return {}
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
    const ordered = await super.sort(files)
    const untimed = ordered.filter((spec) => this.ctx.cache.getTestSpecificationResult(spec) === undefined)
    if (untimed.length === 0) return ordered
    const recorded = this.durations()
    const root = this.ctx.config.root
    const estimates = new Map(
      untimed.map((spec) => [spec, recorded[relative(root, spec.moduleId)] ?? guessedSeconds(spec)]),
    )
    // A stable sort, longest first: among equals (and the timed files, which keep their place ahead of every
    // estimate) Vitest's order stays.
    const estimate = (spec: TestSpecification) => estimates.get(spec) ?? Number.POSITIVE_INFINITY
    return [...ordered].sort((a, b) => estimate(b) - estimate(a))
  }

  /** The recorded wall times (a test gives its own). */
  protected durations(): Record<string, number> {
    return recordedDurations()
  }
}
