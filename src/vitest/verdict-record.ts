// The verdict's trace in the artifacts: when a test's assertions changed its row, the details JSON says so, so
// the per-scenario evidence and results.json tell the same story.
import { readFile } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import { writeJsonArtifact } from '../artifacts/index.ts'
import { detailsVerdict } from '../phases/engine/details.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import type { ScenarioRun } from './scenario-run.ts'

export async function recordVerdict(run: ScenarioRun, row: ResultItem): Promise<void> {
  if (run.detailsPath === null || row === run.row) return
  const runDirectory = dirname(dirname(run.detailsPath))
  let details: Record<string, unknown>
  try {
    details = JSON.parse(await readFile(run.detailsPath, 'utf8')) as Record<string, unknown>
  } catch (error) {
    // The row is already decided; only its trace in the details cannot be written.
    throw new Error(
      `Scenario ${run.scenarioId}: cannot record the test's verdict in ${run.detailsPath} ` +
        `(${error instanceof Error ? error.message : String(error)}); results.json still has the row`,
      { cause: error },
    )
  }
  details.verdict = detailsVerdict(row)
  await writeJsonArtifact(runDirectory, relative(runDirectory, run.detailsPath), details)
}
