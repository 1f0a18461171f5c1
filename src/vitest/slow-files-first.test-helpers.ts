// The test sequencer of this repository's vitest.config.ts. Vitest runs the files it timed before longest first,
// and files it never ran (a fresh clone, CI) largest first, which puts the short files that spawn processes (child
// Vitest runs, the packed-package tests) last: one of them then runs alone while the other worker idles. Files it
// has no time for are ordered here by what they do: those that spawn child Vitest runs first, then the package
// tests (by then the global setup's background build is done), then the rest as Vitest orders them.
import { readFileSync } from 'node:fs'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const SPAWNS_VITEST = /child-vitest\.ts'|node_modules\/vitest\/vitest\.mjs/
const USES_PACKAGE = /from '\.\/(consumer-project|shared-package)\.test-helpers\.ts'/

function rank(spec: TestSpecification): number {
  const source = readFileSync(spec.moduleId, 'utf8')
  if (USES_PACKAGE.test(source)) return 1
  if (spec.moduleId.endsWith('.integration.test.ts') || SPAWNS_VITEST.test(source)) return 0
  return 2
}

export default class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files)
    const untimed = ordered.filter((spec) => this.ctx.cache.getTestSpecificationResult(spec) === undefined)
    if (untimed.length === 0) return ordered
    const ranks = new Map(untimed.map((spec) => [spec, rank(spec)]))
    // A stable sort: among equals (and among the timed files, ranked with the first group) Vitest's order stays.
    return [...ordered].sort((a, b) => (ranks.get(a) ?? 0) - (ranks.get(b) ?? 0))
  }
}
