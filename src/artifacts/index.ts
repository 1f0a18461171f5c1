// The artifacts module's public surface.
export { isTemporaryName, writeFileAtomically, writeFileAtomicallySync } from './atomic-file.ts'
export { artifactPathProblem, resolveArtifactPath, resolveArtifactPathSync } from './destinations.ts'
export {
  ArtifactPathError,
  ArtifactsError,
  ResultsDirectoryError,
  RowsJournalError,
  RunLabelError,
} from './errors.ts'
export { artifactIdProblem, isArtifactSafeId } from './ids.ts'
export {
  assertPrivateDirectoryUsable,
  makePrivateDirectories,
  PRIVATE_DIRECTORY_MODE,
  PRIVATE_FILE_MODE,
  privateDirectoryProblem,
} from './private-directories.ts'
export { journalFileFor, ROWS_JOURNAL_FILE, RowsJournal, type RowsJournalStart } from './rows-journal.ts'
export type { JournalEnd, JournalEndReason, JournalHeader } from './rows-journal-format.ts'
export {
  type JournalCompletion,
  journalCompletion,
  journalFilesIn,
  type ReadRowsJournal,
  type RebuiltResults,
  readRowsJournal,
  rebuildResultsFile,
  resultsDocumentFromJournal,
  unfinishedRunDirectories,
  writeInterruptedResultsSync,
} from './rows-journal-read.ts'
export { MAX_RUN_NAME_ATTEMPTS, type ReservedRunDirectory, reserveRunDirectory } from './run-directory.ts'
export { defaultRunLabel, runName, runTimestamp } from './run-name.ts'
export { removeStrayTemporaries } from './stray-temporaries.ts'
export {
  type ArtifactWriteOptions,
  jsonArtifactText,
  writeArtifact,
  writeArtifactSync,
  writeJsonArtifact,
} from './write.ts'
