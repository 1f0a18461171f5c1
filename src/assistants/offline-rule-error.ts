// The error an assistant author's own offline code throws with: a defineAssistant rule callback (`when`, `say`,
// `call.arguments`, `answer`) that failed. It is the author's bug, not a failure of live-evals, and it must read the
// same whichever architecture ran the rule: the client backend runs it in this process (the error travels as its
// cause), the offline GPT-Live server plays Responses delegation and sends its message as an `error` event with
// OFFLINE_RULE_ERROR_CODE before it closes the session.
import { firstCauseOf } from '../errors/causes.ts'

/** The `error` event code the offline GPT-Live server sends when an offline rule threw. */
export const OFFLINE_RULE_ERROR_CODE = 'offline_rule_error'

export class OfflineRuleError extends Error {}
// On the prototype, so Vitest does not list it among the error's own fields.
OfflineRuleError.prototype.name = 'OfflineRuleError'

/** The offline rule error `error` is or was caused by (a few wrappers deep), or null. */
export function offlineRuleErrorIn(error: unknown): OfflineRuleError | null {
  return firstCauseOf(error, OfflineRuleError)
}
