// src/vitest/test-durations.test.json, the wall time of each unit test file as bench/test-cpu.ts last measured it
// (`seconds`), the CPU time it took then (`cpu_seconds`: its worker's and its child processes'), and the figures
// set there by hand (`pinned`, with its reason in `pinned_comment`). The sequencer (slow-files-first.test-helpers.ts)
// reads it; the bench rewrites `seconds` and `cpu_seconds` and keeps `pinned` as it is. Both names say test, so
// neither reaches the package (scripts/build.ts, tsconfig.build.json): the list used to ship.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

export const TEST_DURATIONS_FILE = join(import.meta.dirname, 'test-durations.test.json')

const Seconds = z.record(z.string(), z.number().positive())

export const TestDurationsSchema = z.object({
  comment: z.string().optional(),
  pinned: Seconds.default({}),
  pinned_comment: z.string().optional(),
  seconds: Seconds.default({}),
  cpu_seconds: z.record(z.string(), z.number().nonnegative()).default({}),
})

export type TestDurations = z.infer<typeof TestDurationsSchema>

/** The durations document in `file`; throws naming the file when it is not valid JSON of this shape. */
export function readTestDurations(file: string = TEST_DURATIONS_FILE): TestDurations {
  try {
    return TestDurationsSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
  } catch (error) {
    const why = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message
    throw new Error(`${file} is not a test durations file: ${why}`)
  }
}

/** Seconds of wall time per file (repository-relative path): as pinned, else as last measured. */
export function durationsOf(document: z.input<typeof TestDurationsSchema>): Record<string, number> {
  const { pinned, seconds } = TestDurationsSchema.parse(document)
  return { ...seconds, ...pinned }
}

/** One test file as the bench measured it (repository-relative path, seconds). */
export interface MeasuredFile {
  file: string
  wall: number
  self: number
  children: number
}

/** Files shorter than this are left out: they end too soon for their place in the order to matter. */
const LISTED_FROM_SECONDS = 2

/**
 * The durations document for a measured run: each file of 2 s or more with its wall and CPU time, longest first,
 * and the hand-set entries of `previous` kept as they were (a pinned file's measurement is left out).
 */
export function measuredDurations(files: readonly MeasuredFile[], previous: TestDurations): TestDurations {
  const { pinned } = previous
  const listed = files
    .filter((file) => file.wall >= LISTED_FROM_SECONDS && pinned[file.file] === undefined)
    .sort((a, b) => b.wall - a.wall)
  const tenths = (seconds: number) => Math.round(seconds * 10) / 10
  return {
    comment:
      'Wall and CPU seconds per unit test file as last measured (bench/test-cpu.ts --durations); the sequencer ' +
      '(slow-files-first.test-helpers.ts) runs the longest first and keeps the files that mostly wait spread ' +
      'out. Only files of 2 s or more.',
    pinned_comment: previous.pinned_comment,
    pinned,
    seconds: Object.fromEntries(listed.map((file) => [file.file, tenths(file.wall)])),
    cpu_seconds: Object.fromEntries(listed.map((file) => [file.file, tenths(file.self + file.children)])),
  }
}
