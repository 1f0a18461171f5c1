// The test context of a scenario test, by name. Without it the context's type is what the fixture chain in
// fixtures.ts infers: a fifteen-deep Omit chain that editors print in full and the compiler emitted as an
// 11,581-line fixtures.d.ts. Here each fixture is written once, with what it is; fixtures.ts is typed with it, so
// the chain must build exactly these fixtures (tsc checks it).
import type { TestAPI, TestContext } from 'vitest'
import type { AssistantApplication } from '../assistants/application.ts'
import type { AssistantArchitecture, ScenarioApplication } from '../assistants/architectures/index.ts'
import type { PhaseSettings } from '../config/index.ts'
import type { RateLimiter } from '../models/rate-limiter.ts'
import type { CallerAudio, CallerSource } from '../phases/engine/caller.ts'
import type { ScenarioEnv } from '../phases/engine/execution.ts'
import type { PhaseModule } from '../phases/engine/phase-module.ts'
import type { InterventionSchedule } from '../phases/run/interventions/index.ts'
import type { LoadedScenario } from '../scenarios/index.ts'
import type { OfflineLiveServer } from '../testing/live-server/index.ts'
import type { ExplainArmBinding } from './rerun-suite.ts'
import type { RunPlan } from './run-plan-schema.ts'
import type { ScenarioRun } from './scenario-run.ts'
import type { AssistantArchitecture as ArchitectureName } from './settings.ts'

/** The fixtures a scenario test body uses. */
export interface ScenarioFixtures {
  /** The executed scenario: what the matchers grade (`expect(liveSession).toCompleteTask()`). */
  liveSession: ScenarioRun
  /** The caller's request exactly as liveSession streamed it. */
  callerAudio: CallerAudio
  /** This scenario's application: its tool executions and its state after the run. */
  toolState: ScenarioApplication
  /** The scenario being run (validated, with defaults filled in). */
  scenario: LoadedScenario
  /** The delegation architecture of this test (`responses` or `client`). */
  architecture: ArchitectureName
  /** The GPT-Live model of this test (scenarioSuite binds it per model); null means the plan's only model. */
  model: string | null
  /** The assistant under test given to scenarioSuite(); null for the bundled restaurant example. */
  assistant: AssistantApplication | null
  /** Where and how the scenario runs (settings, run directory, judge). */
  scenarioEnv: ScenarioEnv<PhaseSettings>
}

/** What a scenario test body receives: Vitest's test context and the scenario fixtures. */
export type ScenarioTestContext = TestContext & ScenarioFixtures

/** Fixtures built once per worker, from the run plan. */
interface WorkerFixtures {
  runPlan: RunPlan
  phase: PhaseModule
  suiteSettings: PhaseSettings
}

/** Fixtures shared by the tests of one spec file. */
interface FileFixtures {
  offlineServer: OfflineLiveServer | null
  interventions: InterventionSchedule
  callerSource: CallerSource
  architectures: (assistant: AssistantApplication | null) => Record<ArchitectureName, AssistantArchitecture>
  /** Each model's limiter of scenarios in flight (execution.model_concurrency). */
  modelLimiters: (model: string) => RateLimiter
}

/** Per test: the scenario fixtures and the automatic verdict. */
interface TestFixtures extends ScenarioFixtures {
  /** In a run started by `live-evals explain`: the arm this test re-runs its scenario under; null otherwise. */
  explainArm: ExplainArmBinding | null
  // biome-ignore lint/suspicious/noConfusingVoidType: the verdict fixture returns nothing, which Vitest types as void
  verdict: void
}

/**
 * Every fixture of fixtures.ts, with the scope markers Vitest's builder types keep (`$__worker`, `$__file`,
 * `$__test`: type-only, nothing at run time) so that `.override()` and further `.extend()` calls type-check.
 */
export type InternalScenarioFixtures = WorkerFixtures &
  FileFixtures &
  TestFixtures & {
    readonly $__worker?: WorkerFixtures
    readonly $__file?: FileFixtures
    readonly $__test?: TestFixtures
  }

/** The type of `scenarioTest` (fixtures.ts). */
export type ScenarioTestAPI = TestAPI<InternalScenarioFixtures>
