// The repository's sequencer: on a fresh clone (no timings cached) the files run longest first by their recorded
// wall time, and files without one by what they do (child Vitest runs, then the packed-package tests), instead of
// Vitest's largest-file-first, which put the slow ones last; files whose recorded CPU time says they mostly wait are
// kept spread out over the run (worker-schedule.test-helpers.ts).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect, test } from 'vitest'
import type { TestSpecification, Vitest } from 'vitest/node'
import SlowFilesFirst, { recordedTimes } from './slow-files-first.test-helpers.ts'
import {
  durationsOf,
  measuredDurations,
  readTestDurations,
  TestDurationsSchema,
} from './test-durations.test-helpers.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const project = { name: 'unit', config: { sequence: { groupOrder: 0 }, isolate: true } }
const spec = (file: string) => ({ moduleId: resolve(ROOT, file), project }) as unknown as TestSpecification
const sequencer = (
  timed: Record<string, number>,
  durations: Record<string, number> = {},
  options: { cpu?: Record<string, number>; failed?: readonly string[]; maxWorkers?: number } = {},
) =>
  new (class extends SlowFilesFirst {
    protected override recorded() {
      return { wall: durations, cpu: options.cpu ?? {} }
    }
  })({
    config: { root: ROOT, maxWorkers: options.maxWorkers ?? availableParallelism() + 2 },
    cache: {
      getTestSpecificationResult: (s: TestSpecification) => {
        const file = s.moduleId.slice(ROOT.length + 1)
        const duration = timed[file]
        return duration === undefined
          ? undefined
          : { duration, failed: options.failed?.includes(file) ?? false }
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

test('untimed and unrecorded: child-Vitest files first, then the package tests, then the rest largest first', async () => {
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

test('untimed: longest recorded wall time first; files without one by what they do', async () => {
  const durations = { 'src/vitest/plugin/sharding.test.ts': 99, 'src/config/load.test.ts': 12 }
  const sorted = await sequencer({}, durations).sort(FILES.map(spec))
  expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([
    'src/vitest/plugin/sharding.test.ts', // recorded 99 s
    'src/vitest/interrupt.integration.test.ts', // spawns child Vitest runs: taken as 20 s
    'src/config/load.test.ts', // recorded 12 s
    'src/package/installed-package.test.ts', // the package tests: taken as 10 s
    'src/vitest/tags.test.ts',
  ])
})

test('recorded CPU time: a file that mostly waits does not start beside another while a computing file is left', async () => {
  // One worker beyond the cores (whatever their number): one waiting file at a time.
  const durations = {
    'src/vitest/plugin/sharding.test.ts': 90,
    'src/vitest/interrupt.integration.test.ts': 80,
    'src/package/installed-package.test.ts': 70,
    'src/config/load.test.ts': 30,
    'src/vitest/tags.test.ts': 10,
  }
  const cpu = {
    'src/vitest/plugin/sharding.test.ts': 10,
    'src/vitest/interrupt.integration.test.ts': 8,
    'src/package/installed-package.test.ts': 60,
    'src/config/load.test.ts': 30,
    'src/vitest/tags.test.ts': 1,
  }
  const sorted = await sequencer({}, durations, { cpu, maxWorkers: availableParallelism() + 1 }).sort(
    FILES.map(spec),
  )
  expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([
    'src/vitest/plugin/sharding.test.ts', // waits: the longest
    'src/package/installed-package.test.ts', // computes: starts before the second waiting file
    'src/config/load.test.ts',
    'src/vitest/interrupt.integration.test.ts', // waits: once no computing file is left
    'src/vitest/tags.test.ts',
  ])
  // Without the CPU times it is longest first.
  const unmeasured = await sequencer({}, durations, { maxWorkers: availableParallelism() + 1 }).sort(
    FILES.map(spec),
  )
  expect(unmeasured.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual(Object.keys(durations))
})

test('timed: a file that failed last time runs first, the rest longest first by their timings', async () => {
  const timed = Object.fromEntries(FILES.map((file, index) => [file, (index + 1) * 1000]))
  const sorted = await sequencer(timed, {}, { failed: ['src/package/installed-package.test.ts'] }).sort(
    FILES.map(spec),
  )
  expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([
    'src/package/installed-package.test.ts',
    'src/vitest/tags.test.ts',
    'src/vitest/interrupt.integration.test.ts',
    'src/vitest/plugin/sharding.test.ts',
    'src/config/load.test.ts',
  ])
})

test('the bench writes wall and CPU time for files of 2 s or more, longest first, keeping the pinned entries', () => {
  const previous = readTestDurations()
  const pinnedFile = Object.keys(previous.pinned)[0] as string
  const document = measuredDurations(
    [
      { file: 'src/a.test.ts', wall: 3.04, self: 0.5, children: 0.26 },
      { file: 'src/b.test.ts', wall: 12.3, self: 1, children: 8 },
      { file: 'src/short.test.ts', wall: 1.9, self: 1.9, children: 0 },
      { file: pinnedFile, wall: 40, self: 1, children: 0 },
    ],
    previous,
  )
  expect(document.pinned).toEqual(previous.pinned)
  expect(Object.entries(document.seconds)).toEqual([
    ['src/b.test.ts', 12.3],
    ['src/a.test.ts', 3],
  ])
  expect(document.cpu_seconds).toEqual({ 'src/b.test.ts': 9, 'src/a.test.ts': 0.8 })
  // What it writes reads back as a durations file.
  expect(TestDurationsSchema.parse(JSON.parse(JSON.stringify(document)))).toEqual(document)
})

test('the recorded durations read as test files and seconds (an entry for a file that is gone is ignored)', () => {
  const recorded = Object.entries(recordedTimes().wall)
  expect(recorded.length).toBeGreaterThan(10)
  for (const [file, seconds] of recorded) {
    expect(file).toMatch(/^(src|reporters|bin)\/.+\.test\.ts$/)
    expect(seconds).toBeGreaterThan(0)
  }
  // Most of them still exist (a measurement refreshes the list; see slow-files-first.test-helpers.ts).
  const existing = recorded.filter(([file]) => existsSync(resolve(ROOT, file)))
  expect(existing.length).toBeGreaterThan(recorded.length / 2)
  // Every measured file has its CPU time beside its wall time, and some of them mostly wait.
  const { seconds, cpu_seconds } = readTestDurations()
  expect(Object.keys(cpu_seconds).sort()).toEqual(Object.keys(seconds).sort())
  const waiting = Object.entries(seconds).filter(([file, wall]) => (cpu_seconds[file] as number) < wall / 3)
  expect(waiting.length).toBeGreaterThan(3)
})

test('all timed: Vitest’s own order, longest first', async () => {
  const timed = Object.fromEntries(FILES.map((file, index) => [file, (index + 1) * 1000]))
  const sorted = await sequencer(timed).sort(FILES.map(spec))
  expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([...FILES].reverse())
})

test('a pinned duration is taken over a measured one; a document without either section has none', () => {
  const durations = durationsOf({
    pinned: { 'src/vitest/journal.integration.test.ts': 2 },
    seconds: { 'src/vitest/journal.integration.test.ts': 30, 'src/config/load.test.ts': 12 },
  })
  expect(durations).toEqual({ 'src/vitest/journal.integration.test.ts': 2, 'src/config/load.test.ts': 12 })
  expect(durationsOf({})).toEqual({})
  expect(() => durationsOf({ pinned: { 'src/config/load.test.ts': -1 } })).toThrow()
})

test("each pinned file still reads a shared child run, the pins' reason (a stale pin is caught here)", async () => {
  const { pinned } = readTestDurations()
  const recorded = recordedTimes().wall
  expect(Object.keys(pinned).length).toBeGreaterThan(0)
  for (const [file, seconds] of Object.entries(pinned)) {
    expect(recorded[file], file).toBe(seconds)
    const source = readFileSync(resolve(ROOT, file), 'utf8')
    expect(source, file).toMatch(/shared-child-run\.test-helpers\.ts'|fixture-projects\.test-helpers\.ts'/)
  }
  // Untimed, a pinned reader runs after a file measured longer; without its pin it would be taken for a 20 s
  // integration file and run first.
  const reader = Object.keys(pinned).find((file) => file.endsWith('.integration.test.ts')) as string
  const measured = { 'src/config/load.test.ts': 12 }
  const order = async (durations: Record<string, number>) =>
    (await sequencer({}, durations).sort([spec(reader), spec('src/config/load.test.ts')])).map((s) =>
      s.moduleId.slice(ROOT.length + 1),
    )
  expect(await order(durationsOf({ pinned, seconds: measured }))).toEqual(['src/config/load.test.ts', reader])
  expect(await order(durationsOf({ seconds: measured }))).toEqual([reader, 'src/config/load.test.ts'])
})

test('a broken durations file is refused, naming the file and the field (bench/test-cpu.ts stops before its run)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'live-evals-durations-'))
  const file = join(folder, 'test-durations.json')
  writeFileSync(file, JSON.stringify({ pinned: { 'src/config/load.test.ts': -1 } }))
  expect(() => readTestDurations(file)).toThrow(
    new RegExp(`^${file} is not a test durations file: .*pinned`, 's'),
  )
  writeFileSync(file, '{"pinned": ')
  expect(() => readTestDurations(file)).toThrow(`${file} is not a test durations file: `)
})
