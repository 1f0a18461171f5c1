// Writing a run's results.json at the end of the run. Its destination was checked when the run folder was made,
// but something can be planted there while the run goes on (a symbolic link to another file, a hard link, a
// folder): the artifact writer refuses to write through it, and that refusal must not cost the run its results.
// The refusal is said by name and the same document is written beside it, so nothing that finished is lost.

import { ArtifactPathError } from '../src/artifacts/errors.ts'
import { writeJsonArtifact } from '../src/artifacts/index.ts'
import type { ResultsDocument } from '../src/reporting/result-schema.ts'

/** Where the results go when their own name is refused: beside it, in the same run folder. */
export function besideName(resultsFile: string): string {
  return resultsFile.replace(/(\.json)?$/, '.recovered.json')
}

/**
 * Writes `document` as `resultsFile` in `directory`, or beside it when that name is refused. Returns the name
 * written (relative to the folder), or null when neither could be, each problem logged; it never throws.
 */
export async function writeRunResultsFile(
  directory: string,
  resultsFile: string,
  document: ResultsDocument,
  log: (line: string) => void,
): Promise<string | null> {
  for (const name of [resultsFile, besideName(resultsFile)]) {
    try {
      await writeJsonArtifact(directory, name, document)
      if (name !== resultsFile)
        log(`live-evals: the results were written beside it instead: ${directory}/${name}`)
      return name
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      log(
        error instanceof ArtifactPathError
          ? `live-evals: ${reason}`
          : `live-evals: ${name} in ${directory} could not be written (${reason})`,
      )
    }
  }
  return null
}
