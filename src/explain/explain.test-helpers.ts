// Builders for the explain tests: a finished offline run folder made the way a run makes it (each scenario through
// the engine with the default body's verdict, the phase's configuration block, results.json from the rows),
// datasets whose scenarios fail offline for a reason the test controls, and what explain needs to re-run them
// through a Vitest project (src/explain/fixtures: the bundled assistant, the default body).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { reserveRunDirectory, writeJsonArtifact } from '../artifacts/index.ts'
import type { Architecture } from '../assistants/frontend/index.ts'
import type { PhaseSettings } from '../config/index.ts'
import { scenarioFaultProfile } from '../faults/scenario-profile.ts'
import { architectureFor } from '../phases/engine/architecture-choice.ts'
import { runScenario } from '../phases/engine/run-scenario.ts'
import { scenarioApplicationFor } from '../phases/engine/scenario-application.ts'
import { phaseModule } from '../phases/registry.ts'
import { loadInterventions } from '../phases/run/interventions/index.ts'
import { buildResultsDocument } from '../reporting/results-document.ts'
import { type LoadedScenario, loadDataset, scenarioType } from '../scenarios/index.ts'
import { startOfflineLiveServer } from '../testing/live-server/index.ts'
import { cleanEnvironment } from '../vitest/child-vitest.test-helpers.ts'
import { defaultBodyVerdict } from '../vitest/default-body-verdict.ts'
import { scenarioRunOf } from '../vitest/scenario-run.ts'

export const ROOT = join(import.meta.dirname, '../..')

/** The Vitest config whose projects (`walk-explain`, `run-explain`) re-run the explain tests' runs. */
export const EXPLAIN_VITEST_CONFIG = 'src/explain/fixtures/vitest.config.ts'

/**
 * The environment an explain of a test runs with (its settings and its child Vitest's): this process's without
 * Vitest's, live-evals' or OpenAI's variables, and an empty `.env` file of its own (a developer's never leaks in).
 */
export async function explainEnvironment(
  folder: string,
  extra: Record<string, string> = {},
): Promise<Record<string, string | undefined>> {
  const envFile = join(folder, 'empty.env')
  await writeFile(envFile, '')
  return cleanEnvironment({ LIVE_EVALS_ENV_FILE: envFile, ...extra })
}

/** A config.toml in `folder` from its lines; returns its path. */
export async function writeToml(folder: string, name: string, lines: readonly string[]): Promise<string> {
  const file = join(folder, name)
  await writeFile(file, `${lines.join('\n')}\n`)
  return file
}

export async function scratchFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'live-evals-explain-'))
}

/**
 * A finished run of `dataset` in `architecture`, as `npx vitest run` would leave it: the artifacts, the scenario
 * snapshots and results.json (with the phase's configuration). Offline against a fresh offline server; live
 * against whatever the settings point at (the dress-rehearsal server in tests). Returns the run folder.
 */
export async function recordRun(options: {
  settings: PhaseSettings
  dataset: string
  architecture: Architecture
  resultsDir: string
  only?: readonly string[]
  /** execution.trials: each scenario runs this many times, one row per trial (default 1). */
  trials?: number
}): Promise<string> {
  const { settings, architecture } = options
  const phase = await phaseModule(settings.phase)
  const scenarios = (await loadDataset(options.dataset)).scenarios.filter(
    (scenario) => options.only === undefined || options.only.includes(scenario.id),
  )
  const mode = settings.execution.mode
  const reserved = await reserveRunDirectory(
    options.resultsDir,
    `${settings.phase}_${mode}_${architecture}`,
    new Date(),
  )
  const server = mode === 'offline' ? await startOfflineLiveServer() : null
  const interventions =
    settings.phase === 'run'
      ? await loadInterventions(settings.simulation.interventions_file, null)
      : undefined
  const rows = []
  try {
    const trials = options.trials ?? 1
    for (const [scenario, trial] of (scenarios as LoadedScenario[]).flatMap((scenario) =>
      Array.from({ length: trials }, (_, index) => [scenario, index + 1] as const),
    )) {
      const env = {
        trial: trials > 1 ? trial : null,
        settings,
        runDirectory: reserved.path,
        offlineServer: server,
        architecture: architectureFor(architecture, settings),
        callerSource: phase.callerSource(settings),
        ...(interventions === undefined ? {} : { interventions }),
        // As the Vitest fixture chooses it: the run's setting, else the scenario's fault_profile tag.
        faults: scenarioFaultProfile(scenario, settings.execution.faults),
      }
      const execution = await runScenario(phase, scenario, env as never, {
        application: scenarioApplicationFor(env, scenario),
      })
      const base = {
        scenarioId: scenario.id,
        architecture,
        expected: scenario.expected,
        failure: execution.failure,
        row: execution.row,
        detailsPath: null,
      }
      rows.push(
        defaultBodyVerdict(scenarioRunOf(base, execution), {
          phase: settings.phase,
          scenarioType: scenarioType(scenario),
          judged: false,
        }),
      )
    }
  } finally {
    await server?.close()
  }
  const document = buildResultsDocument(
    {
      id: reserved.name,
      module: settings.phase,
      execution_mode: mode === 'offline' ? 'offline_fixture' : 'live',
      interaction: phase.interaction,
      dataset: options.dataset,
      configuration: phase.configuration(settings, architecture, ROOT),
    },
    rows,
    scenarios.map((scenario) => scenario.id),
  )
  await writeJsonArtifact(reserved.path, 'results.json', document)
  return reserved.path
}

/** Writes a JSON file into `folder` and returns its path. */
export async function writeJson(folder: string, name: string, value: unknown): Promise<string> {
  const file = join(folder, name)
  await writeFile(file, JSON.stringify(value, null, 2))
  return file
}

const BUNDLED_WALK = join(ROOT, 'scenarios/walk/restaurant.json')

/**
 * A WALK dataset of one request recorded clean and under the noisy preset, whose recordings say the date wrong
 * ("August 22"; the caller meant August 12, as its text says). Offline the server hears a recording by its
 * transcript, so both rows book the wrong day and fail; hearing the text instead fixes them, the clean recording
 * does not (it says the same). Written into `folder`; returns the dataset file.
 */
export async function misheardWalkDataset(folder: string): Promise<string> {
  const bundled = JSON.parse(await readFile(BUNDLED_WALK, 'utf8')) as { scenarios: Record<string, unknown>[] }
  const byId = (id: string) => {
    const row = bundled.scenarios.find((candidate) => candidate.id === id)
    if (row === undefined) throw new Error(`the bundled WALK dataset has no ${id}`)
    return structuredClone(row) as {
      id: string
      input: { text: string; recordings: Record<string, unknown>[] }
    }
  }
  const misheard = (id: string, newId: string) => {
    const row = byId(id)
    row.id = newId
    const recording = row.input.recordings[0] as { path: string; metadata: Record<string, unknown> }
    recording.path = join(ROOT, 'scenarios/walk', recording.path)
    const generation = recording.metadata.generation as Record<string, unknown>
    generation.source_scenario_id = 'explain_booking_request'
    recording.metadata.transcript = row.input.text.replace('August 12', 'August 22')
    return row
  }
  return writeJson(folder, 'misheard-walk.json', {
    schema_version: '1.0',
    // The noisy one first: an explain of both finishes it first (explain-run.test.ts interrupts there and compares
    // it with the explanation of it alone).
    scenarios: [
      misheard('walk_001_booking_complete_request_noisy', 'explain_misheard_noisy'),
      misheard('walk_001_booking_complete_request', 'explain_misheard_clean'),
    ],
  })
}
