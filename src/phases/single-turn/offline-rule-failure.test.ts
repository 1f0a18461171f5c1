// An offline rule of the user's own assistant that throws fails its scenario at stage offline_rule, with a message
// that names the rule and the thrown error, and the same way whichever architecture ran the rule: in this process
// (the client backend) or in the offline GPT-Live server (Responses delegation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OfflineRuleError } from '../../assistants/offline-rule-error.ts'
import { inlineDataset } from '../../define/scenario.ts'
import { LiveSessionError } from '../../live/errors.ts'
import type { Scenario } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { RULE_FAILURE_PARTS, TODO_LINE_ARCHITECTURES } from '../engine/offline-rule-failure.test-helpers.ts'
import { stageFailureOf } from '../engine/stage.ts'
import { collectionFailure } from './collect.ts'
import { executeScenario, freshRunDirectory, offlineCrawlSettings, offlineEnv } from './test-support.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

const [duplicate] = inlineDataset(
  [
    {
      id: 'dup_milk',
      title: 'Add a task that is already there',
      type: 'task_request',
      interaction: 'single_turn',
      input: { text: 'Please add a task to buy milk.' },
      application: { initial_state: { tasks: [{ title: 'buy milk' }] } },
      expected: {
        answer: 'Milk is already on the list.',
        tools: { required: [{ name: 'add_task', status: 'failed' }] },
        delegation: 'required',
        state: { unchanged: true },
      },
    },
  ],
  import.meta.filename,
)

describe('an offline rule that throws', () => {
  it.each(['responses', 'client'] as const)(
    'fails its scenario at offline_rule naming the rule, the callback and the error (%s)',
    async (name) => {
      const settings = await offlineCrawlSettings({ timeoutSeconds: 10 })
      const env = offlineEnv(settings, server, await freshRunDirectory(), name, {
        architecture: TODO_LINE_ARCHITECTURES[name](),
      })
      const execution = await executeScenario(duplicate as Scenario, env)
      expect(execution.failure?.stage).toBe('offline_rule')
      const message = execution.failure?.message ?? ''
      for (const part of RULE_FAILURE_PARTS) expect(message).toContain(part)
      // Where it was thrown: the rule's own file.
      expect(message).toContain('offline-rule-failure.test-helpers.ts')
      expect(execution.row.error).toMatchObject({ stage: 'offline_rule', message })
    },
  )
})

// The client backend's rule error reaches the collector (DelegationWatch.idle rethrows it) while the session has
// failed too, on the way out: the rule is still why the scenario ended.
describe('a collection that failed on an offline rule while its session failed too', () => {
  it('keeps the rule’s error as the cause, so the scenario ends at offline_rule', () => {
    const ruleError = new OfflineRuleError(RULE_FAILURE_PARTS.join(' '))
    const delegationFailure = new Error('delegation item_deleg_1 failed', { cause: ruleError })
    const sessionFailure = new LiveSessionError('connection closed (code 1006) before session.closed', {
      stage: 'stream',
      kind: 'unexpected_eof',
      closeCode: 1006,
    })
    const settled = { type: 'failed', synthetic: false, error: sessionFailure, atMs: 2900 } as const
    const failure = stageFailureOf(
      collectionFailure('dup_milk', delegationFailure, settled),
      'response_collection',
    )
    expect(failure).toEqual({ stage: 'offline_rule', message: ruleError.message })
  })

  it('without a rule, names the session’s failure as the reason', () => {
    const sessionFailure = new LiveSessionError('connection closed (code 1006) before session.closed', {
      stage: 'stream',
      kind: 'unexpected_eof',
      closeCode: 1006,
    })
    const settled = { type: 'failed', synthetic: false, error: sessionFailure, atMs: 2900 } as const
    const failed = collectionFailure('dup_milk', new Error('round trip rejected'), settled)
    expect(failed.cause).toBe(sessionFailure)
    expect(stageFailureOf(failed, 'response_collection')).toEqual({
      stage: 'response_collection',
      message: `Collecting the response of dup_milk failed: ${sessionFailure.message}`,
    })
  })
})
