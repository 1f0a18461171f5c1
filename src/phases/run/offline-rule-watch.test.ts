// Once an offline call closed, the watch says whether it ended on an offline rule that threw: the delegation
// failure a look found (client delegation), or the offline server's close for the rule (Responses), which may come
// in the very step the watcher stopped the call at, so that no later send runs into it.
import { describe, expect, it } from 'vitest'
import { OFFLINE_RULE_ERROR_CODE, OfflineRuleError } from '../../assistants/offline-rule-error.ts'
import { LiveSessionError } from '../../live/errors.ts'
import type { LiveSessionOutcome } from '../../live/outcome.ts'
import { stageFailureOf } from '../engine/stage.ts'
import { OfflineRuleWatch } from './offline-rule-watch.ts'

const RULE_MESSAGE = 'assistant "todo-line", offline.rules[0] (when /add/): answer(output) threw TypeError: …'

/** The session outcome the offline server's close leaves after its `error` event `code` (what LiveSession keeps). */
function failedAfter(code: string, message: string): LiveSessionOutcome {
  const error = new LiveSessionError(`connection closed (code 1011) before session.closed after ${message}`, {
    stage: 'stream',
    kind: 'unexpected_eof',
    closeCode: 1011,
    serverError: { type: 'server_error', code, message },
  })
  return { type: 'failed', synthetic: false, error, atMs: 3200 }
}

const CLEAN_CLOSE = { type: 'local_shutdown', synthetic: true, cause: 'disposed', atMs: 3200 } as const

/** A controller with no retained failure, or the one a rule's delegation left. */
const idle = { delegationFailure: () => null }

describe('OfflineRuleWatch.throwIfEndedOnRule', () => {
  it('throws the session failure of the offline server’s close for a rule, which is reported at offline_rule', () => {
    const closed = failedAfter(OFFLINE_RULE_ERROR_CODE, RULE_MESSAGE)
    const watch = new OfflineRuleWatch(idle)
    let thrown: unknown = null
    try {
      watch.throwIfEndedOnRule(closed)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBe(closed.type === 'failed' ? closed.error : null)
    expect(stageFailureOf(thrown, 'response_collection')).toEqual({
      stage: 'offline_rule',
      message: RULE_MESSAGE,
    })
  })

  it('leaves a call that closed cleanly, or failed for another reason, to its grading and checks', () => {
    const watch = new OfflineRuleWatch(idle)
    expect(() => watch.throwIfEndedOnRule(CLEAN_CLOSE)).not.toThrow()
    expect(() =>
      watch.throwIfEndedOnRule(failedAfter('offline_server_error', 'the server broke')),
    ).not.toThrow()
  })

  it('throws the delegation failure a look found, however the session closed', () => {
    const ruleError = new OfflineRuleError(RULE_MESSAGE)
    const delegationFailure = new Error('the delegation failed', { cause: ruleError })
    const watch = new OfflineRuleWatch({ delegationFailure: () => delegationFailure })
    expect(() => watch.throwIfThrown()).not.toThrow()
    watch.look()
    expect(() => watch.throwIfThrown()).toThrow(delegationFailure)
    expect(() => watch.throwIfEndedOnRule(CLEAN_CLOSE)).toThrow(delegationFailure)
  })

  it('leaves a retained failure no offline rule caused (a failing backend) to the call', () => {
    const watch = new OfflineRuleWatch({ delegationFailure: () => new Error('the backend failed') })
    watch.look()
    expect(() => watch.throwIfEndedOnRule(CLEAN_CLOSE)).not.toThrow()
  })
})
