// Artifact-safe identifiers: scenario ids, recording ids and run labels become file and folder names,
// so they are checked, never sanitized. A bad id is rejected with the reason.

const ARTIFACT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/
const MAX_ARTIFACT_ID_LENGTH = 100
// Windows reserves these names in every folder, with or without an extension.
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i

/** Why `id` cannot name an artifact, or null when it can. */
export function artifactIdProblem(id: string): string | null {
  if (id.length < 1 || id.length > MAX_ARTIFACT_ID_LENGTH) {
    return `must be 1-${MAX_ARTIFACT_ID_LENGTH} characters long`
  }
  if (!ARTIFACT_ID_PATTERN.test(id)) {
    return 'must start with a letter or digit and use only ASCII letters, digits, ".", "_" and "-"'
  }
  if (id.endsWith('.')) return 'must not end with "."'
  if (WINDOWS_DEVICE_NAME.test(id)) return 'must not be a Windows device name'
  return null
}

export function isArtifactSafeId(id: string): boolean {
  return artifactIdProblem(id) === null
}
