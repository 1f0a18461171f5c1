// The artifacts module's public surface.
export { artifactPathProblem, resolveArtifactPath } from './destinations.ts'
export { ArtifactPathError, ArtifactsError, ResultsDirectoryError, RunLabelError } from './errors.ts'
export { artifactIdProblem, isArtifactSafeId } from './ids.ts'
export {
  assertPrivateDirectoryUsable,
  makePrivateDirectories,
  PRIVATE_DIRECTORY_MODE,
  PRIVATE_FILE_MODE,
  privateDirectoryProblem,
} from './private-directories.ts'
export { MAX_RUN_NAME_ATTEMPTS, type ReservedRunDirectory, reserveRunDirectory } from './run-directory.ts'
export { defaultRunLabel, runName, runTimestamp } from './run-name.ts'
export { writeArtifact, writeJsonArtifact } from './write.ts'
