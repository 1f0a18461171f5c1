// What one scenario execution hands back to Vitest, whatever the phase, and the environment it runs in.
import type { AssistantArchitecture } from '../../assistants/architectures/index.ts'
import type { CrawlSettings, PhaseSettings, WalkSettings } from '../../config/index.ts'
import type { ScenarioFaultProfile } from '../../faults/scenario-profile.ts'
import type { SemanticJudgeOptions } from '../../grading/judge/index.ts'
import type { JudgedRunGrade, RunObservation } from '../../grading/run/run-outcome.ts'
import type { SingleTurnGrade } from '../../grading/single-turn.ts'
import type { SingleTurnObservation } from '../../observability/observation.ts'
import type { ResultItem } from '../../reporting/result-schema.ts'
import type { OfflineLiveServer } from '../../testing/live-server/index.ts'
import type { InterventionSchedule } from '../run/interventions/index.ts'
import type { ArtifactPaths } from './artifacts.ts'
import type { CallerSource } from './caller.ts'
import type { StageFailure } from './stage.ts'

export type SingleTurnSettings = CrawlSettings | WalkSettings

/**
 * Where and how one scenario runs.
 * - `settings`: the phase's settings as resolved once for the run (mode, clock, timeouts, models).
 * - `runDirectory`: the reserved run folder (absolute); artifacts go below it.
 * - `offlineServer`: the offline GPT-Live server in offline mode, null live.
 * - `architecture`: the assistant under test's delegation architecture (src/assistants/architectures).
 * - `callerSource`: how the caller's request is produced (synthetic, text-to-speech, recording).
 * - `judge`: the semantic judge's options (judgeOptionsFromSettings); null or absent: no judge runs, and the
 *   applicable semantic dimensions stay not_assessed (offline, or grading disabled).
 * - `interventions`: RUN's scheduled caller interventions by scenario id (simulation.interventions_file, loaded
 *   once per file); absent: none.
 */
export interface ScenarioEnv<Settings extends PhaseSettings = SingleTurnSettings> {
  settings: Settings
  runDirectory: string
  offlineServer: OfflineLiveServer | null
  architecture: AssistantArchitecture
  callerSource: CallerSource
  judge?: SemanticJudgeOptions | null | undefined
  interventions?: InterventionSchedule
  /**
   * The scenario's fault profile (execution.faults, else its `fault_profile:<name>` tag; see
   * faults/scenario-profile.ts); null or absent: the scenario runs clean.
   */
  faults?: ScenarioFaultProfile | null
  /** Why the scenario's fault profile could not be chosen (a tag naming no profile): it fails at input_setup. */
  faultsProblem?: string | null
  /**
   * The trial of a trials run (execution.trials > 1), 1-based; null or absent otherwise. It names the artifact
   * folder (`<scenario id>__t<i>`, see trialArtifactName) and sets the row's `trial` extension.
   */
  trial?: number | null
}

interface ExecutionBase {
  scenarioId: string
  row: ResultItem
  artifacts: ArtifactPaths
  failure: StageFailure | null
}

/** One request (CRAWL, WALK): observation and grade are null when nothing was observed. */
export interface SingleTurnExecution extends ExecutionBase {
  interaction: 'single_turn'
  observation: SingleTurnObservation | null
  /** The deterministic grade with the judge's grades applied; null when nothing was observed. */
  grade: SingleTurnGrade | null
}

/** A whole conversation (RUN). */
export interface MultiTurnExecution extends ExecutionBase {
  interaction: 'multi_turn'
  observation: RunObservation | null
  /** The RUN grade with the judge's grades applied (when one ran); null when nothing was observed. */
  grade: JudgedRunGrade | null
}

export type ScenarioExecution = SingleTurnExecution | MultiTurnExecution
