// The facts of a failed row that decide which interventions apply (interventions.ts): read from its results row
// (its delegations, recording and fault record), its details JSON and the run's configuration. The details are read loosely, field by field: a field that is
// missing or of another shape counts as "not recorded", which makes the intervention that needs it not apply.
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { faultProfile } from '../config/fault-profiles.ts'
import type { PhaseSettings } from '../config/index.ts'
import type { FaultsRecord } from '../faults/events.ts'
import type { ScenarioFaultProfile } from '../faults/scenario-profile.ts'
import { readScenarioSnapshot } from '../phases/engine/scenario-snapshot.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import { type LoadedScenario, loadDataset } from '../scenarios/index.ts'
import { RESULT_FAULT_KINDS, type RowFacts } from './interventions.ts'
import type { FailedScenario, SourceRun } from './source-run.ts'

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

/**
 * The fault profile the row ran under (its `faults` record: the profile's name, the seed, where it was chosen),
 * or null when it ran clean. A profile the record names that this version does not know cannot be re-run.
 */
function faultsOf(record: FaultsRecord | undefined): ScenarioFaultProfile | null {
  if (record === undefined) return null
  const profile = faultProfile(record.profile, `the row's fault record`)
  return { profile: { ...profile, seed: record.seed }, source: record.source }
}

/** The id of the request a WALK recording was made from (its generation metadata), or null. */
function sourceScenarioOf(recording: unknown): string | null {
  if (!isObject(recording) || !isObject(recording.metadata)) return null
  const generation = recording.metadata.generation
  return isObject(generation) ? textOf(generation.source_scenario_id) : null
}

function isCleanRecordingOf(candidate: LoadedScenario, source: string): boolean {
  const recording = candidate.input.recordings[0]
  return recording?.condition === 'clean' && sourceScenarioOf(recording) === source
}

/** Scenario snapshots of the run folder (every scenario the run recorded). */
async function snapshotIds(run: SourceRun): Promise<string[]> {
  try {
    const names = await readdir(join(run.directory, 'scenarios'))
    return names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length))
  } catch {
    return []
  }
}

/** The datasets the run's scenarios came from, as results.json names them (relative to the project root). */
function runDatasets(run: SourceRun, cwd: string): string[] {
  const listed = run.document.run.configuration[EXTENSION_KEY]?.datasets ?? []
  return [...new Set([run.document.run.dataset, ...listed])]
    .filter((path) => path.endsWith('.json'))
    .map((path) => resolve(cwd, path))
}

/**
 * The clean recording of the same request as a WALK row under a preset: a scenario of the run (its snapshot) or of
 * its dataset whose recording is `clean` and was made from the same source request.
 */
async function cleanSiblingOf(
  run: SourceRun,
  failed: FailedScenario,
  cwd: string,
): Promise<RowFacts['cleanSibling']> {
  const source = sourceScenarioOf(failed.failedRow.recording)
  if (source === null) return null
  for (const id of await snapshotIds(run)) {
    if (id === failed.scenarioId) continue
    try {
      const candidate = await readScenarioSnapshot(run.directory, id)
      if (isCleanRecordingOf(candidate, source)) return { scenario: candidate }
    } catch {
      // A snapshot that cannot be read is not a candidate; the dataset may still have it.
    }
  }
  const datasets = runDatasets(run, cwd)
  for (const file of datasets) {
    try {
      const found = (await loadDataset(file)).scenarios.find((candidate) =>
        isCleanRecordingOf(candidate, source),
      )
      if (found !== undefined) return { scenario: found }
    } catch {
      // Moved or changed since the run: the next source, then the reason below.
    }
  }
  return {
    missing: `no clean recording of the same request (source ${source}) among the run's scenarios or in ${datasets.join(', ') || 'its dataset'}`,
  }
}

function delegatedOf(failed: FailedScenario): boolean | null {
  const actual = failed.failedRow.metrics.task.delegations?.actual
  if (typeof actual === 'number') return actual > 0
  return Array.isArray(failed.details.delegations) ? failed.details.delegations.length > 0 : null
}

function bargeInsOf(details: Json): { scheduled: string[]; said: string[] } {
  const outcomes = (Array.isArray(details.interventions) ? details.interventions : []).filter(
    (outcome): outcome is Json =>
      isObject(outcome) && outcome.kind === 'barge_in' && typeof outcome.id === 'string',
  )
  return {
    scheduled: outcomes.map((outcome) => outcome.id as string),
    said: outcomes
      .filter((outcome) => typeof outcome.cue_ms === 'number')
      .map((outcome) => outcome.id as string),
  }
}

export async function rowFactsOf(
  run: SourceRun,
  failed: FailedScenario,
  settings: PhaseSettings,
  cwd: string,
): Promise<RowFacts> {
  const mode = settings.execution.mode
  const replayedCaller = mode === 'live' && run.module !== 'crawl' ? settings.replay.caller : null
  const configuration = run.document.run.configuration
  const record = failed.failedRow.observability?.[EXTENSION_KEY]?.faults
  const injected = record?.injected ?? []
  const bargeIns = bargeInsOf(failed.details)
  const recording = failed.failedRow.recording
  return {
    phase: run.module,
    mode,
    callerReplayed: typeof replayedCaller === 'string' ? replayedCaller : null,
    toolsFromCassette: typeof replayedCaller === 'string' && settings.replay.caller_tools === 'cassette',
    delegated: delegatedOf(failed),
    recordingCondition: run.module === 'walk' && isObject(recording) ? textOf(recording.condition) : null,
    cleanSibling: run.module === 'walk' ? await cleanSiblingOf(run, failed, cwd) : null,
    callerCondition: run.module === 'run' ? textOf(configuration.audio_condition) : null,
    bargeInsSaid: bargeIns.said,
    bargeInsScheduled: bargeIns.scheduled,
    faultedResults: injected.filter((event) => event.plane === 'tool' && RESULT_FAULT_KINDS.has(event.kind))
      .length,
    faults: faultsOf(record),
    faultKinds: injected.map((event) => event.kind),
  }
}
