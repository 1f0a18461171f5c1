// The artifacts errors: one root and a subclass per kind of refusal. Each message is one plain sentence that
// names the path and the problem (and what to do), because it is shown to a person as it is: the startup
// failure and the CLI print these without a stack trace.

export class ArtifactsError extends Error {
  /** The path the problem is about (absolute where known). */
  readonly path: string
  constructor(path: string, message: string) {
    super(message)
    this.name = 'ArtifactsError'
    this.path = path
  }
}

/** A results, run or attachments folder that live-evals cannot use: a symlink, a file, not writable, gone. */
export class ResultsDirectoryError extends ArtifactsError {
  constructor(path: string, message: string) {
    super(path, message)
    this.name = 'ResultsDirectoryError'
  }
}

/** An artifact destination refused by its text or by what is on disk (traversal, links, wrong kind of file). */
export class ArtifactPathError extends ArtifactsError {
  constructor(runDir: string, relativePath: string, reason: string) {
    super(runDir, `Artifact destination ${JSON.stringify(relativePath)} in ${runDir} refused: ${reason}`)
    this.name = 'ArtifactPathError'
  }
}

/** A run label that cannot be part of a folder name. */
export class RunLabelError extends ArtifactsError {
  constructor(label: string, message: string) {
    super(label, message)
    this.name = 'RunLabelError'
  }
}

/** A rows journal that cannot be written or read back: its message names the file and, when reading, the line. */
export class RowsJournalError extends ArtifactsError {
  constructor(file: string, message: string) {
    super(file, message)
    this.name = 'RowsJournalError'
  }
}
