// The snapshot of the validated scenario a row was graded against, kept in the run folder at
// `scenarios/<scenario_id>.json`, so a finished run can be re-graded (`live-evals grade`) even after its dataset
// changed or moved: the details JSON holds what was observed, the snapshot what was expected.
//
// Written by the record stage, one file per scenario, rather than one scenarios.json for the run: the scenarios of
// a run directory are recorded by several workers at once and, in a sharded run, by several processes that each
// know only their shard's scenarios; one file per scenario needs no coordination and cannot lose a shard's part.
// Each snapshot is itself a dataset file (schema 1.0, one scenario) that the scenario contract validates on
// reading, with recording paths made absolute so they resolve where they did during the run.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeJsonArtifact } from '../../artifacts/index.ts'
import { type LoadedScenario, parseDataset, SCHEMA_VERSION, type Scenario } from '../../scenarios/index.ts'
import { SCENARIO_ARTIFACT } from './artifacts.ts'

function scenarioSnapshotPath(scenarioId: string): string {
  return `scenarios/${scenarioId}.json`
}

/** The scenario as a one-scenario dataset document (recording paths absolute, nothing resolved added). */
export function scenarioSnapshotDocument(scenario: Scenario | LoadedScenario): Record<string, unknown> {
  const { input } = scenario
  const recordings = input.recordings.map((recording) => {
    const { resolvedPath, ...given } = recording as typeof recording & { resolvedPath?: string }
    return resolvedPath === undefined ? given : { ...given, path: resolvedPath }
  })
  return { schema_version: SCHEMA_VERSION, scenarios: [{ ...scenario, input: { ...input, recordings } }] }
}

/** Writes the snapshot (0600, atomically, unflushed like the scenario's other artifacts); returns its absolute path. */
export function writeScenarioSnapshot(
  runDirectory: string,
  scenario: Scenario | LoadedScenario,
): Promise<string> {
  return writeJsonArtifact(
    runDirectory,
    scenarioSnapshotPath(scenario.id),
    scenarioSnapshotDocument(scenario),
    SCENARIO_ARTIFACT,
  )
}

/** Reads and validates a scenario's snapshot; the error names the file and what is wrong with it. */
export async function readScenarioSnapshot(
  runDirectory: string,
  scenarioId: string,
): Promise<LoadedScenario> {
  const file = join(runDirectory, scenarioSnapshotPath(scenarioId))
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new Error(
      `${file}: no snapshot of scenario ${scenarioId} (${(error as NodeJS.ErrnoException).code ?? String(error)}); ` +
        'only runs recorded by this version of live-evals can be re-graded',
    )
  }
  const dataset = parseDataset(text, file)
  const scenario = dataset.scenarios[0]
  if (dataset.scenarios.length !== 1 || scenario?.id !== scenarioId) {
    throw new Error(`${file}: the snapshot must hold exactly scenario ${scenarioId}`)
  }
  return scenario
}
