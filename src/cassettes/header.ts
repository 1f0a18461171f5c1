// The cassette header: what a recording depends on, so replay can refuse one that cannot answer this run.
import { VERSION as OPENAI_SDK_VERSION } from 'openai/version'
import type { PhaseSettings } from '../config/index.ts'
import { liveEvalsVersion } from '../package/version.ts'
import { jsonHash } from './hashes.ts'
import { CASSETTE_VERSION, type CassetteHeader, type SessionRecord } from './schema.ts'

/** `<scenario id>__<architecture>`, and `__t<n>` for trial n of a trials run: the row a cassette replays. */
export function cassetteIdOf(scenarioId: string, architecture: string, trial: number | null): string {
  return `${scenarioId}__${architecture}${trial === null ? '' : `__t${trial}`}`
}

/** The settings that change what a run sends or when; paths, credentials and output folders are left out. */
export function behaviourSettings(settings: PhaseSettings): Record<string, unknown> {
  const {
    mode: _mode,
    results_dir: _results,
    record: _record,
    cassettes_dir: _cassettes,
    ...execution
  } = settings.execution
  const { cache_dir: _judgeCache, ...grading } = settings.grading
  const chosen: Record<string, unknown> = { execution, grading, assistant_mode: settings.assistant.mode }
  if ('audio' in settings) {
    const { cache_dir: _cache, refresh_audio: _refresh, ...audio } = settings.audio as Record<string, unknown>
    chosen.audio = audio
  }
  if (settings.phase === 'run') {
    const {
      assistant_first_prompt_file: _prompt,
      interventions_file: _interventions,
      ...simulation
    } = settings.simulation
    chosen.simulation = simulation
  }
  return chosen
}

/** A hash of the assistant session's configuration as sent (its session.start), or null when none was sent. */
export function assistantHashOf(sessions: readonly SessionRecord[]): string | null {
  const assistant = sessions.find((session) => session.label === 'assistant')
  const start = assistant?.frames.find((frame) => frame.event.type === 'session.start')
  return start === undefined ? null : jsonHash(start.event.session ?? null)
}

export function cassetteHeader(options: {
  id: string
  settings: PhaseSettings
  architecture: string
  trial: number | null
  scenario: { id: string }
  sessions: readonly SessionRecord[]
}): CassetteHeader {
  const { settings } = options
  return {
    cassette_version: CASSETTE_VERSION,
    id: options.id,
    live_evals_version: liveEvalsVersion(),
    openai_sdk_version: OPENAI_SDK_VERSION,
    phase: settings.phase,
    architecture: options.architecture,
    trial: options.trial,
    scenario_id: options.scenario.id,
    scenario_hash: jsonHash(options.scenario),
    assistant_hash: assistantHashOf(options.sessions),
    models: Object.fromEntries(Object.entries(settings.models).map(([name, value]) => [name, String(value)])),
    settings: JSON.parse(JSON.stringify(behaviourSettings(settings))),
    recorded_at: new Date().toISOString(),
  }
}
