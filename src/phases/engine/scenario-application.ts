// A scenario's application as the engine builds it: the architecture's own, over the assistant-visible input,
// under the scenario's fault profile (ScenarioEnv.faults). The `toolState` fixture, RUN's rehearsals and the
// test helpers all build it here, so every session of a scenario draws the same faults.
import type { ScenarioApplication } from '../../assistants/architectures/index.ts'
import { assistantVisibleInput, type Scenario } from '../../scenarios/index.ts'
import type { ScenarioEnv } from './execution.ts'

export function scenarioApplicationFor(
  env: Pick<ScenarioEnv, 'architecture' | 'faults'>,
  scenario: Scenario,
): ScenarioApplication {
  return env.architecture.createApplication(assistantVisibleInput(scenario), undefined, {
    faults: env.faults ?? null,
  })
}
