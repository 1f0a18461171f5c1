// An assistant author's offline rule that threw ends the scenario at stage offline_rule, with the rule's own message,
// whichever architecture ran it: the client backend's failure carries the OfflineRuleError as its cause; under
// Responses delegation the offline GPT-Live server sent its message as an `error` event before closing the session.
import { OFFLINE_RULE_ERROR_CODE, offlineRuleErrorIn } from '../../assistants/offline-rule-error.ts'
import { LiveSessionError } from '../../live/errors.ts'
import { StageError } from './stage.ts'

/** The offline_rule failure `error` stands for, or null when no offline rule threw. */
export function offlineRuleFailure(error: unknown): StageError | null {
  const thrown = offlineRuleErrorIn(error)
  if (thrown !== null) return new StageError('offline_rule', thrown.message)
  const serverError = error instanceof LiveSessionError ? error.serverError : undefined
  if (serverError?.code === OFFLINE_RULE_ERROR_CODE)
    return new StageError('offline_rule', serverError.message)
  return null
}
