// The repository's sequencer: on a fresh clone (no timings cached) the files that spawn child Vitest runs go
// first and the packed-package tests after them, instead of Vitest's largest-file-first, which put them last.
import { resolve } from 'node:path'
import { expect, test } from 'vitest'
import type { TestSpecification, Vitest } from 'vitest/node'
import SlowFilesFirst from './slow-files-first.test-helpers.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const project = { name: 'unit', config: { sequence: { groupOrder: 0 }, isolate: true } }
const spec = (file: string) => ({ moduleId: resolve(ROOT, file), project }) as unknown as TestSpecification
const sequencer = (timed: Record<string, number>) =>
  new SlowFilesFirst({
    config: { root: ROOT },
    cache: {
      getTestSpecificationResult: (s: TestSpecification) => {
        const duration = timed[s.moduleId.slice(ROOT.length + 1)]
        return duration === undefined ? undefined : { duration, failed: false }
      },
    },
  } as unknown as Vitest)

const FILES = [
  'src/config/load.test.ts', // the largest of these, plain unit tests
  'src/package/installed-package.test.ts',
  'src/vitest/plugin/sharding.test.ts', // spawns child Vitest runs
  'src/vitest/interrupt.integration.test.ts', // through a helper
  'src/vitest/tags.test.ts',
]

test('untimed: child-Vitest files first, then the package tests, then the rest largest first', async () => {
  const sorted = (await sequencer({}).sort(FILES.map(spec))).map((s) => s.moduleId.slice(ROOT.length + 1))
  // Within a group Vitest's order stays (the larger file first).
  expect(sorted).toEqual([
    'src/vitest/interrupt.integration.test.ts',
    'src/vitest/plugin/sharding.test.ts',
    'src/package/installed-package.test.ts',
    'src/config/load.test.ts',
    'src/vitest/tags.test.ts',
  ])
})

test('all timed: Vitest’s own order, longest first', async () => {
  const timed = Object.fromEntries(FILES.map((file, index) => [file, (index + 1) * 1000]))
  const sorted = await sequencer(timed).sort(FILES.map(spec))
  expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([...FILES].reverse())
})
