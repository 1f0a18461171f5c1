// The assess and record stages of the single-turn phases (CRAWL, WALK): the deterministic graders and the judge
// over the one request (engine/assess.ts), then the single-turn row, details and artifacts (engine/record.ts).
import { assessConversation } from '../engine/assess.ts'
import type { SingleTurnExecution, SingleTurnSettings } from '../engine/execution.ts'
import type { ObservedConversation } from '../engine/observed.ts'
import type { ConversationGrader } from '../engine/phase-module.ts'
import { failedExecution, recordExecution } from '../engine/record.ts'

export const singleTurnGrader: ConversationGrader<
  ObservedConversation,
  SingleTurnExecution,
  SingleTurnSettings
> = {
  async grade(scenario, env, caller, observed, written, options) {
    const assessed = await assessConversation(scenario, observed, env)
    return recordExecution(scenario, env, caller, observed, assessed, written, options)
  },
  failed: failedExecution,
}
