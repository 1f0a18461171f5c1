// The scenario's isolated application, as the Vitest `toolState` fixture holds it. It is built before the session
// from the assistant-visible input only and handed to the session (openScenarioSession), so the state a test reads
// is the state the assistant under test actually changed.

import { createScenarioApplication, type ScenarioApplication } from '../../assistants/assistant-session.ts'
import type { Architecture } from '../../assistants/frontend/index.ts'
import { assistantVisibleInput, type Scenario } from '../../scenarios/index.ts'

export type ToolState = ScenarioApplication

/** A fresh application for `scenario` in `architecture`'s own restaurant copy, for one session only. */
export function createToolState(scenario: Scenario, architecture: Architecture): ToolState {
  return createScenarioApplication(assistantVisibleInput(scenario), architecture)
}
