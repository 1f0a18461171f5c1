// An assistant author's offline rule that threw ends the scenario at stage offline_rule, with the rule's own message,
// whichever phase and architecture ran it. The shared failure classification (stage.ts stageFailureOf) asks this
// module first, whatever stage was running and whatever wrapped the error on its way out: the client backend's
// failure carries the OfflineRuleError as its cause; under Responses delegation the offline GPT-Live server sent
// its message as an `error` event (OFFLINE_RULE_ERROR_CODE) before closing the session, so the session's failure
// carries it.
import { OFFLINE_RULE_ERROR_CODE, OfflineRuleError } from '../../assistants/offline-rule-error.ts'
import { LiveSessionError } from '../../live/errors.ts'

/** How many wrappers deep a cause is looked for (error chains are short; a cycle must not loop). */
const CAUSE_DEPTH = 8

/** The offline_rule failure `error` (or one of its causes) stands for, or null when no offline rule threw. */
export function offlineRuleFailure(error: unknown): { stage: 'offline_rule'; message: string } | null {
  let current = error
  for (let depth = 0; depth < CAUSE_DEPTH && current instanceof Error; depth += 1) {
    if (current instanceof OfflineRuleError) return { stage: 'offline_rule', message: current.message }
    if (current instanceof LiveSessionError && current.serverError?.code === OFFLINE_RULE_ERROR_CODE)
      return { stage: 'offline_rule', message: current.serverError.message }
    current = current.cause
  }
  return null
}
