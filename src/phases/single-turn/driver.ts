// How a single-turn conversation (CRAWL, WALK) is driven: one assistant session hears the prepared request,
// then silence, until its response is complete or the response timeout passed (collect.ts), and is observed.
import type { SingleTurnSettings } from '../engine/execution.ts'
import type { ObservedConversation } from '../engine/observed.ts'
import type { ConversationDriver, OpenConversation } from '../engine/phase-module.ts'
import { printVerboseTranscript } from '../engine/verbose-transcript.ts'
import { collectSingleTurn } from './collect.ts'
import { observeSingleTurn } from './observation.ts'
import { openScenarioSession } from './scenario-session.ts'

export const singleTurnDriver: ConversationDriver<ObservedConversation, SingleTurnSettings> = {
  async open(scenario, env, caller, options): Promise<OpenConversation<ObservedConversation>> {
    const session = await openScenarioSession(scenario, env, caller, options)
    const signal = options.signal === undefined ? {} : { signal: options.signal }
    return {
      timeline: session.timeline,
      trace: session.trace,
      async run() {
        try {
          const collected = await collectSingleTurn(session, caller, signal)
          const observed = observeSingleTurn(session, caller, collected, env.settings.models.backend_model)
          printVerboseTranscript(scenario, env, options, observed)
          return observed
        } finally {
          session.detach()
        }
      },
      async abort() {
        session.detach()
        await session.assistant.close()
      },
    }
  },
}
