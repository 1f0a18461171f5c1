// An assistant author's offline rule that threw ends the scenario at stage offline_rule, with the rule's own message,
// whichever phase and architecture ran it. The shared failure classification (stage.ts stageFailureOf) asks this
// module first, whatever stage was running and whatever wrapped the error on its way out: the client backend's
// failure carries the OfflineRuleError as its cause; under Responses delegation the offline GPT-Live server sent
// its message as an `error` event (OFFLINE_RULE_ERROR_CODE) before closing the session, so the session's failure
// carries it.
import { OFFLINE_RULE_ERROR_CODE, OfflineRuleError } from '../../assistants/offline-rule-error.ts'
import { causesOf } from '../../errors/causes.ts'
import { LiveSessionError } from '../../live/errors.ts'

/** The offline_rule failure `error` (or one of its causes) stands for, or null when no offline rule threw. */
export function offlineRuleFailure(error: unknown): { stage: 'offline_rule'; message: string } | null {
  for (const cause of causesOf(error)) {
    if (cause instanceof OfflineRuleError) return { stage: 'offline_rule', message: cause.message }
    if (cause instanceof LiveSessionError && cause.serverError?.code === OFFLINE_RULE_ERROR_CODE)
      return { stage: 'offline_rule', message: cause.serverError.message }
  }
  return null
}
