// Row extension `expected_failure` (issue 22): the spec declared this scenario must fail, on these required checks
// (an offline behaviour that mishandles a fault on purpose, so the checks are shown failing). The row keeps its
// real verdict (`failed`); `met` says whether it failed exactly as declared. Vitest passes the test only when it
// did, so the two verdicts still agree: see src/vitest/verdict.ts and the README's "One verdict" section.
import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const ExpectedFailureSchema = z.strictObject({
  /** The required checks the spec declared would fail, sorted. */
  checks: z.array(z.string().min(1)).min(1),
  /** The row failed on exactly those required checks (the test passed); false: it did not (the test failed). */
  met: z.boolean(),
})
export type ExpectedFailure = z.infer<typeof ExpectedFailureSchema>

export const expectedFailureExtension = defineExtensionFeature({
  name: 'expected_failure',
  scope: 'row',
  version: '1.0',
  summary:
    'the spec declared the scenario must fail on these required checks; met: it failed on exactly those (the row stays failed, the Vitest test passes)',
  schema: ExpectedFailureSchema,
})
