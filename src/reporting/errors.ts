// The reporting errors: one root (`ReportingError`, carrying a `code`) and a subclass per way a report can be
// refused. Messages say what failed, where (file, row, JSON path) and what to do.

export type ReportingErrorCode = 'result_validation' | 'results_file' | 'duplicate_row' | 'extension_registry'

export class ReportingError extends Error {
  readonly code: ReportingErrorCode
  constructor(code: ReportingErrorCode, message: string) {
    super(message)
    this.name = 'ReportingError'
    this.code = code
  }
}

/** A row whose data cannot be reported as schema 2.0 (it becomes an infrastructure_error at `result_validation`). */
export class ResultValidationError extends ReportingError {
  readonly failure_stage = 'result_validation'
  constructor(message: string) {
    super('result_validation', message)
    this.name = 'ResultValidationError'
  }
}

/** A results.json that cannot be read: not JSON, not schema 2.0, or a field that does not validate. */
export class ResultsFileError extends ReportingError {
  readonly source: string
  constructor(source: string, message: string) {
    super('results_file', `${source}: ${message}`)
    this.name = 'ResultsFileError'
    this.source = source
  }
}

/** Two rows with the same (scenario id, trial) in one run: a run directory holds each key once. */
export class DuplicateResultRowError extends ReportingError {
  readonly scenario_id: string
  readonly trial: number
  /** Zero-based positions of the two rows in the list that was given. */
  readonly positions: readonly [number, number]
  constructor(scenarioId: string, trial: number, positions: readonly [number, number], message: string) {
    super('duplicate_row', message)
    this.name = 'DuplicateResultRowError'
    this.scenario_id = scenarioId
    this.trial = trial
    this.positions = positions
  }
}
