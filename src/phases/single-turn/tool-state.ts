// The scenario's isolated application. The assistant session builds its own executor over a deep copy of the
// authorized initial state; this exposes that one (so tests read the state the assistant changed) and, before a
// session exists, builds a standalone copy of the same architecture's application from the visible input only.

import type { AssistantUnderTest } from '../../assistants/assistant-session.ts'
import { RestaurantTools as ClientRestaurantTools } from '../../assistants/client/tools/restaurant-tools.ts'
import type { Architecture } from '../../assistants/frontend/index.ts'
import { RestaurantTools as ResponsesRestaurantTools } from '../../assistants/responses/tools/restaurant-tools.ts'
import { ToolRuntime } from '../../assistants/runtime/index.ts'
import { assistantVisibleInput, type Scenario } from '../../scenarios/index.ts'

export type ToolState = AssistantUnderTest['tools']

/** A fresh application for `scenario` in `architecture`'s own restaurant copy, never shared with anything. */
export function createToolState(scenario: Scenario, architecture: Architecture): ToolState {
  const initialState = assistantVisibleInput(scenario).initialState
  const executor =
    architecture === 'responses'
      ? new ResponsesRestaurantTools({ initialState: structuredClone(initialState) })
      : new ClientRestaurantTools({ initialState: structuredClone(initialState) })
  const runtime = new ToolRuntime(executor)
  return {
    executions: () => runtime.executions(),
    snapshot: () => runtime.snapshot(),
    initialState: structuredClone(initialState),
  }
}

/** The application the connected assistant actually uses. */
export function toolStateOf(assistant: Pick<AssistantUnderTest, 'tools'>): ToolState {
  return assistant.tools
}
