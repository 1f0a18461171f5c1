// The assistant players choose each session's scenario from what the harness configures it with: for every
// bundled single-turn scenario and both architectures, the behaviour chosen from the session.start the harness
// sends decides as the architecture's own offline behaviour does for that scenario. Scenarios differing only in
// their visible history (which the instructions do not carry) each get their own.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { clientDelegation, responsesDelegation } from '../../assistants/architectures/index.ts'
import {
  assistantModelsFromSettings,
  buildAssistantPlan,
  buildSessionStart,
} from '../../assistants/frontend/index.ts'
import { DEFAULT_MODELS } from '../../config/defaults.ts'
import type { ModelSettings } from '../../config/index.ts'
import { assistantVisibleInput, loadDataset } from '../../scenarios/index.ts'
import { sessionConfigSchema } from '../live-server/session-config-schema.ts'
import { assistantPlayers } from './assistant-players.ts'

const ROOT = join(import.meta.dirname, '../../..')

describe('assistant players', () => {
  it('play every bundled scenario as its own offline behaviour, in both architectures', async () => {
    const scenarios = [
      ...(await loadDataset(join(ROOT, 'scenarios/crawl/restaurant.json'))).scenarios,
      ...(await loadDataset(join(ROOT, 'scenarios/walk/restaurant.json'))).scenarios,
    ]
    const players = assistantPlayers(scenarios)
    const models = assistantModelsFromSettings(DEFAULT_MODELS as ModelSettings)
    for (const architecture of [responsesDelegation(), clientDelegation()]) {
      for (const scenario of scenarios) {
        const visible = assistantVisibleInput(scenario)
        const plan = buildAssistantPlan(visible, { architecture: architecture.name, models })
        // As the server sees it: validated by the offline server's own session schema.
        const config = sessionConfigSchema.parse(buildSessionStart(plan))
        const played = players.session.behaviourFor(config)
        const own = architecture.offlineBehaviour(visible)
        const where = `${architecture.name} ${scenario.id}`
        expect(played, where).not.toBeNull()
        expect(played?.inferToolCall(visible.inputText, []), where).toEqual(
          own.inferToolCall(visible.inputText, []),
        )
        expect(played?.directAnswer(visible.inputText, []), where).toBe(
          own.directAnswer(visible.inputText, []),
        )
      }
    }
  })

  it('leave a session with instructions of no rehearsed scenario to nobody', async () => {
    const players = assistantPlayers([])
    expect(
      players.session.behaviourFor(sessionConfigSchema.parse({ model: 'gpt-live-1', instructions: 'x' })),
    ).toBeNull()
  })
})
