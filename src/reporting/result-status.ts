// The status mapping of a result row (§4.1). A phase records a raw status; the report reduces it to
// passed | failed | infrastructure_error. Infrastructure wins over the grade: a failure stage means the evidence
// is incomplete, so the grade is diagnostic only.

import { ResultValidationError } from './errors.ts'
import type { ResultStatus } from './result-schema.ts'

export const RAW_RESULT_STATUSES = [
  '',
  'ok',
  'passed',
  'failed',
  'incomplete',
  'error',
  'infrastructure_error',
] as const
export type RawResultStatus = (typeof RAW_RESULT_STATUSES)[number]

export function isRawResultStatus(value: unknown): value is RawResultStatus {
  return typeof value === 'string' && (RAW_RESULT_STATUSES as readonly string[]).includes(value)
}

export function resolveResultStatus(
  rawStatus: unknown,
  taskCompleted: boolean,
  failureStage: string | null,
): ResultStatus {
  if (!isRawResultStatus(rawStatus)) {
    throw new ResultValidationError(
      `status must be a supported result status (got ${JSON.stringify(rawStatus)})`,
    )
  }
  if (rawStatus === 'error' || rawStatus === 'infrastructure_error') return 'infrastructure_error'
  if (rawStatus === 'failed' && failureStage !== null && failureStage !== '') return 'infrastructure_error'
  return taskCompleted ? 'passed' : 'failed'
}
