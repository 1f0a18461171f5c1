// src/vitest/test-durations.test.json, the wall time of each unit test file as bench/test-cpu.ts last measured it
// (`seconds`) and the figures set there by hand (`pinned`, with its reason in `pinned_comment`). The sequencer
// (slow-files-first.test-helpers.ts) reads it; the bench rewrites `seconds` and keeps `pinned` as it is. Both
// names say test, so neither reaches the package (scripts/build.ts, tsconfig.build.json): the list used to ship.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

export const TEST_DURATIONS_FILE = join(import.meta.dirname, 'test-durations.test.json')

const Seconds = z.record(z.string(), z.number().positive())

export const TestDurationsSchema = z.object({
  pinned: Seconds.default({}),
  pinned_comment: z.string().optional(),
  seconds: Seconds.default({}),
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
