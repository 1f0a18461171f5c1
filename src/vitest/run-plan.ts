// The run plan: everything a Vitest run of one phase decides once, in the main process, before any test is
// collected: the settings as resolved, the validated scenarios this process registers (this shard's, when
// sharded), the execution mode, and one run folder per assistant architecture. The global setup builds it and
// `provide`s it; workers read their settings and scenarios from it and never load settings or parse the dataset
// themselves. It crosses process boundaries, so it is plain JSON. It carries the credentials (workers need the
// key live), so it is never written anywhere: test files are stamped with runStampOf(plan) instead.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { artifactIdProblem, defaultRunLabel } from '../artifacts/index.ts'
import { usesRemoteClientAssistant } from '../assistants/architectures/remote/endpoint.ts'
import {
  assertLiveCredentials,
  credentialValues,
  type Phase,
  type PhaseSettings,
  redactSecrets,
  type SettingsFor,
} from '../config/index.ts'
import {
  LIVE_MODELS,
  liveModelFamily,
  modelsSetting,
  modelsToEvaluate,
  settingsForModel,
} from '../config/live-models.ts'
import type { LoadedRerunPlan } from '../explain/rerun-plan.ts'
import { scenarioFaultChoice } from '../faults/scenario-profile.ts'
import { phaseDescription } from '../phases/descriptions.ts'
import { readAssistantFirstPrompt } from '../phases/run/assistant-first-prompt.ts'
import { loadInterventions } from '../phases/run/interventions/index.ts'
import { projectRelativePath } from '../reporting/project-path.ts'
import { withRunExtensions } from '../reporting/results-document.ts'
import { type LoadedScenario, loadDataset, selectScenarios } from '../scenarios/index.ts'
import { claimArmRunDirectories } from './plugin/rerun-runs.ts'
import { claimRunDirectory, releaseUnusedRunDirectories } from './plugin/run-directories.ts'
import { RunPlanProblem } from './plugin/run-plan-problem.ts'
import { itemsOfShard, type Shard } from './plugin/shard.ts'
import { type PlannedRun, type RunPlan, RunPlanSchema } from './run-plan-schema.ts'
import { type AssistantArchitecture, architecturesToEvaluate, resultsDirectory } from './settings.ts'

export { RunPlanProblem }

/** The plan's settings, typed by phase; throws when the plan is another phase's. */
export function settingsOf<P extends Phase>(plan: RunPlan, phase: P): SettingsFor<P> {
  const settings = plan.settings
  if (settings.phase !== phase) {
    throw new Error(`This is a ${settings.phase} run; its settings are not ${phase} settings`)
  }
  return settings as SettingsFor<P>
}

/** The scenarios a phase runs with these settings; throws DatasetValidationError listing every violation. */
export async function selectedScenarios<P extends Phase>(
  settings: SettingsFor<P>,
): Promise<LoadedScenario[]> {
  const dataset = await loadDataset(settings.dataset.path)
  try {
    return selectScenarios(dataset.scenarios, settings.phase, {
      maxExamples: settings.execution.max_examples,
    })
  } catch (error) {
    throw new RunPlanProblem(`Dataset ${settings.dataset.path}: ${(error as Error).message}`)
  }
}

export interface PlanRunOptions {
  /** Project root: the default results folder is `results/<phase>/` under it. */
  projectRoot: string
  now?: Date
  /** The shared run name (LIVE_EVALS_RUN_NAME); a sharded run needs one. */
  runName?: string | null
  /** A run started by `live-evals explain`: its re-run plan (one run per arm, instead of one per architecture). */
  rerunPlan?: LoadedRerunPlan | null
  /** This process's part of a sharded run (`--shard`). */
  shard?: Shard | null
}

/**
 * Check the settings (a live run needs its key), validate the dataset and select this shard's scenarios, then
 * claim one run folder per architecture. Nothing is left behind when any check fails.
 */
export async function planRun<P extends Phase>(
  settings: SettingsFor<P>,
  options: PlanRunOptions,
): Promise<RunPlan> {
  assertLiveCredentials(settings)
  const shard = options.shard ?? null
  const runName = options.runName ?? null
  const datasetProblem = existsSync(settings.dataset.path)
    ? null
    : `the default dataset ${resolve(settings.dataset.path)} (dataset.path, LIVE_EVALS_DATASET) does not exist; ` +
      'create it, point dataset.path at one, or give scenarioSuite() a dataset or scenarios of its own'
  const selected = datasetProblem === null ? await selectedScenarios(settings) : []
  // RUN's interventions sidecar is checked here, against every selected scenario (not only this shard's), so a
  // broken file or an unknown scenario id stops the run before it starts, naming the file and field.
  const resolved: PhaseSettings = settings
  if (resolved.phase === 'run') {
    await readAssistantFirstPrompt(resolved)
    if (datasetProblem === null) {
      await loadInterventions(
        resolved.simulation.interventions_file,
        selected.map((scenario) => scenario.id),
      )
    }
  }
  // A fault_profile tag naming no bundled profile stops the run here, naming the scenario and the tag.
  for (const scenario of selected) {
    const { faultsProblem } = scenarioFaultChoice(scenario, settings.execution.faults)
    if (faultsProblem !== null) throw new RunPlanProblem(`Dataset ${settings.dataset.path}: ${faultsProblem}`)
  }
  const scenarios = itemsOfShard(selected, shard)
  const description = phaseDescription(settings.phase)
  const mode = settings.execution.mode
  const resultsDir = resultsDirectory(settings, options.projectRoot)
  const now = options.now ?? new Date()
  const runs: PlannedRun[] = []
  const models = modelsToEvaluate(settings)
  const multiModel = models.length > 1
  if (multiModel) assertModelsNameFolders(models)
  if (mode === 'offline') assertOfflineServesModels(settings, models)
  const metadataOf = (
    name: string,
    architecture: AssistantArchitecture,
    model: string,
    remote: boolean,
  ): PlannedRun['metadata'] => {
    const metadata: PlannedRun['metadata'] = {
      id: name,
      module: settings.phase,
      execution_mode: mode === 'live' ? 'live' : 'offline_fixture',
      interaction: description.interaction,
      dataset: projectRelativePath(options.projectRoot, resolve(settings.dataset.path)),
      configuration: redactedConfiguration(
        settings,
        description.configuration(settingsForModel(settings, model), architecture, options.projectRoot),
      ),
    }
    return remote
      ? withRunExtensions(metadata, {
          tool_evidence: { source: 'remote_service', architecture_only_comparison: false },
        })
      : metadata
  }
  const rerunPlan = options.rerunPlan ?? null
  if (rerunPlan !== null) {
    // A run started by live-evals explain: one run per arm of the explained scenario, in its architecture.
    const model = settings.models.live_model
    for (const claimed of await claimArmRunDirectories(settings, rerunPlan)) {
      const { arm, ...folder } = claimed
      runs.push({
        model,
        multiModel: false,
        architecture: rerunPlan.architecture,
        arm,
        ...folder,
        metadata: metadataOf(
          folder.name,
          rerunPlan.architecture,
          model,
          remoteClient(settings, rerunPlan.architecture),
        ),
      })
    }
  }
  // Model by model, each in every architecture: one run folder and one results.json per (model, architecture).
  for (const model of rerunPlan === null ? models : [])
    for (const architecture of architecturesToEvaluate(settings)) {
      const remote = remoteClient(settings, architecture)
      const folderModel = multiModel ? model : null
      let claimed: Awaited<ReturnType<typeof claimRunDirectory>>
      try {
        claimed = await claimRunDirectory({
          resultsDir,
          label: runLabel(
            settings.phase,
            settings.replay.enabled ? 'replay' : mode,
            architecture,
            remote,
            folderModel,
          ),
          architecture: folderModel === null ? architecture : `${folderModel}_${architecture}`,
          runName,
          shard,
          now,
        })
      } catch (error) {
        // All or nothing: a run that cannot start leaves no run folder behind.
        await releaseUnusedRunDirectories(runs)
        throw error
      }
      runs.push({
        model,
        multiModel,
        architecture,
        ...claimed,
        metadata: metadataOf(claimed.name, architecture, model, remote),
      })
    }
  return RunPlanSchema.parse({
    phase: settings.phase,
    configFile: settings.config_file,
    mode,
    dataset: resolve(settings.dataset.path),
    projectRoot: options.projectRoot,
    runName,
    shard,
    datasetProblem,
    scenarioIds: scenarios.map((scenario) => scenario.id),
    scenarios,
    settings,
    runs,
    ...(rerunPlan === null ? {} : { rerunPlan }),
  })
}

/** The configuration block as it may be stored: secret-named fields and secret values (keys, tokens) redacted. */
function redactedConfiguration(settings: SettingsFor<Phase>, configuration: Record<string, unknown>) {
  const secretValues = credentialValues(settings)
  return redactSecrets(configuration, { extraNames: settings.redact_fields, secretValues }) as Record<
    string,
    unknown
  >
}

/**
 * `<phase>_<mode>_<architecture>` (mode `replay` for a replay of cassettes): the reference label plus the architecture, since one run evaluates one; a
 * client run against a remote application is `…_client_remote`, so it is never mistaken for the in-process one.
 * A run of several models puts the model before the architecture: `crawl_offline_gpt-live-1.1_responses`.
 */
export function runLabel(
  phase: Phase,
  mode: 'offline' | 'live' | 'replay',
  architecture: AssistantArchitecture,
  remote = false,
  model: string | null = null,
): string {
  const modelPart = model === null ? '' : `_${model}`
  return `${defaultRunLabel(phase, mode)}${modelPart}_${architecture}${remote ? '_remote' : ''}`
}

/** Each model of a several-model run names folders, so it must be artifact-safe; refused before any is claimed. */
function assertModelsNameFolders(models: readonly string[]): void {
  for (const model of models) {
    const problem = artifactIdProblem(model)
    if (problem !== null) {
      throw new RunPlanProblem(
        `execution.models (LIVE_EVALS_MODELS): model ${JSON.stringify(model)} ${problem}, and a run of several ` +
          'models names each run folder after its model',
      )
    }
  }
}

/**
 * Offline, every session goes to the offline GPT-Live server, which serves the GPT-Live model ids and their dated
 * snapshots and refuses any other as the service does: a mistyped model would fail every one of its scenarios at
 * session start, so it stops the run here with one message instead. (Live, the preflight asks the endpoint.)
 */
function assertOfflineServesModels(settings: SettingsFor<Phase>, models: readonly string[]): void {
  const setting = modelsSetting(settings)
  const unknown = models.filter((model) => liveModelFamily(model) === null)
  if (unknown.length === 0) return
  throw new RunPlanProblem(
    `${setting}: ${unknown.map((model) => JSON.stringify(model)).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} ` +
      `not a GPT-Live model (${Object.keys(LIVE_MODELS).join(', ')}, or a dated snapshot such as ` +
      'gpt-live-1.1-2026-11-20); the offline server refuses it as the service does, so every scenario on it would ' +
      'fail at session start',
  )
}

/** Whether this architecture's run evaluates a separately deployed client assistant. */
function remoteClient(settings: SettingsFor<Phase>, architecture: AssistantArchitecture): boolean {
  return architecture === 'client' && settings.phase !== 'run' && usesRemoteClientAssistant(settings)
}

/**
 * The planned run of one architecture (and model: null means the plan's only model); a clear error when the plan
 * does not evaluate it.
 */
export function plannedRunFor(
  plan: Pick<RunPlan, 'runs'>,
  architecture: AssistantArchitecture,
  model: string | null = null,
  arm: string | null = null,
): PlannedRun {
  const run = plan.runs.find(
    (candidate) =>
      candidate.architecture === architecture &&
      (model === null || candidate.model === model) &&
      (candidate.arm ?? null) === arm,
  )
  if (run === undefined) {
    throw new Error(
      `This run does not evaluate the ${architecture} architecture${model === null ? '' : ` on ${model}`} (it evaluates ${plan.runs
        .map((candidate) => `${candidate.architecture} on ${candidate.model}`)
        .join(', ')}); check OPENAI_ASSISTANT_MODE and LIVE_EVALS_MODELS`,
    )
  }
  return run
}

/** The models of a plan, in the order it runs them. */
export function plannedModels(plan: Pick<RunPlan, 'runs'>): string[] {
  return [...new Set(plan.runs.flatMap((run) => (run.model === undefined ? [] : [run.model])))]
}
