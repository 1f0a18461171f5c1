// The assistant under test, played in rehearsal by the bundled assistant's own offline behaviour: for every
// scenario of the rehearsal datasets and both architectures, the plan the harness builds (the same
// buildAssistantPlan) gives the voice instructions a session will start with and the backend instructions its
// client backend will send; a session or request carrying them is that scenario's, and is answered by the
// architecture's offline behaviour and offline client backend, built from the scenario's visible input only.
// Scenarios whose visible input is the same get the same instructions and so the same answers, as they would.
import { offlineBackendOf } from '../../assistants/architectures/client.ts'
import {
  type AssistantArchitecture,
  clientDelegation,
  responsesDelegation,
} from '../../assistants/architectures/index.ts'
import {
  ARCHITECTURES,
  type Architecture,
  assistantModelsFromSettings,
  buildAssistantPlan,
} from '../../assistants/frontend/index.ts'
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import { DEFAULT_MODELS } from '../../config/defaults.ts'
import type { ModelSettings } from '../../config/index.ts'
import { type AssistantVisibleInput, assistantVisibleInput, type Scenario } from '../../scenarios/index.ts'
import { UNINTELLIGIBLE } from './caller-listener.ts'
import { replayClientBackend } from './client-backend-replay.ts'
import type { ResponsesPlayer, SessionPlayer } from './players.ts'

/** What the assistant says to a caller it could not make out; it never guesses, and calls no tool. */
export const NOT_UNDERSTOOD_ANSWER = "Sorry, I didn't catch that. Could you say it again?"

interface Casting {
  architecture: AssistantArchitecture
  visibleInput: AssistantVisibleInput
}

/**
 * A session's identity: its architecture, instructions and the texts of its startup input items (the visible
 * history, which the instructions do not carry: two scenarios may differ only there).
 */
const key = (architecture: Architecture, instructions: string, input: unknown) =>
  [architecture, instructions, ...textsOf(input)].join('\u0000')

/** Every string in `value`, depth first in key order (ids and texts alike), so field order never matters. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(textsOf)
  if (typeof value !== 'object' || value === null) return []
  return Object.keys(value)
    .sort()
    .flatMap((name) => textsOf((value as Record<string, unknown>)[name]))
}

/** The single-turn assistant players (voice sessions and client backend) for `scenarios`. */
export function assistantPlayers(scenarios: readonly Scenario[]): {
  session: SessionPlayer
  clientBackend: ResponsesPlayer
} {
  const architectures: Record<Architecture, AssistantArchitecture> = {
    responses: responsesDelegation(),
    client: clientDelegation(),
  }
  // Instructions do not depend on the models; any valid ones build the same plan text.
  const models = assistantModelsFromSettings(DEFAULT_MODELS as ModelSettings)
  const byVoice = new Map<string, Casting>()
  const byBackend = new Map<string, Casting[]>()
  for (const scenario of scenarios) {
    const visibleInput = assistantVisibleInput(scenario)
    for (const name of ARCHITECTURES) {
      const architecture = architectures[name]
      const plan = buildAssistantPlan(visibleInput, {
        architecture: name,
        application: architecture.application,
        models,
      })
      const casting = { architecture, visibleInput }
      const voice = key(name, plan.voiceInstructions, plan.input)
      if (!byVoice.has(voice)) byVoice.set(voice, casting)
      // Only client delegation sends its backend instructions to /v1/responses (Responses delegation's backend
      // runs inside the GPT-Live session).
      if (name === 'client') {
        byBackend.set(plan.backendInstructions, [...(byBackend.get(plan.backendInstructions) ?? []), casting])
      }
    }
  }
  return {
    session: {
      name: 'single-turn assistant',
      behaviourFor(config) {
        const architecture: Architecture = config.delegation?.type === 'client' ? 'client' : 'responses'
        const casting = byVoice.get(key(architecture, config.instructions ?? '', config.input ?? []))
        if (casting === undefined) return null
        return hearingAware(casting.architecture.offlineBehaviour(casting.visibleInput))
      },
    },
    clientBackend: {
      name: 'client-delegation backend',
      answer(request) {
        const castings = byBackend.get(request.instructions ?? '')
        if (castings === undefined) return null
        if (!Array.isArray(request.input)) return 'input must be the item list the client backend owns'
        const casting = likeliestCasting(castings, JSON.stringify(request.input))
        const { architecture, visibleInput } = casting
        // The architecture's own offline client backend, its tools answered from the request: the live
        // run's application executed them.
        return replayClientBackend(
          (callTool) => offlineBackendOf(architecture.application, visibleInput, callTool),
          request.input,
        )
      },
    },
  }
}

/**
 * Of scenarios whose backend instructions are the same (they differ only in their visible history), the one
 * whose history lines the conversation the backend was handed mentions most.
 */
function likeliestCasting(castings: readonly Casting[], conversation: string): Casting {
  let best = castings[0] as Casting
  let bestCount = -1
  for (const casting of castings) {
    const lines = casting.visibleInput.context?.history ?? []
    const found = lines.filter((line) => conversation.includes(JSON.stringify(line.text).slice(1, -1))).length
    if (found > bestCount) {
      best = casting
      bestCount = found
    }
  }
  return best
}

/** The behaviour, except that a caller it could not make out gets asked again (no tool, no guess). */
function hearingAware(behaviour: OfflineBehaviour): OfflineBehaviour {
  return {
    inferToolCall: (text, earlier) =>
      text === UNINTELLIGIBLE ? null : behaviour.inferToolCall(text, earlier),
    directAnswer: (text, earlier) =>
      text === UNINTELLIGIBLE ? NOT_UNDERSTOOD_ANSWER : behaviour.directAnswer(text, earlier),
    finalAnswer: (output) => behaviour.finalAnswer(output),
  }
}
