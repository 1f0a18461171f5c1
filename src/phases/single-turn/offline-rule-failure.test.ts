// An offline rule of the user's own assistant that throws fails its scenario at stage offline_rule, with a message
// that names the rule and the thrown error, and the same way whichever architecture ran the rule: in this process
// (the client backend) or in the offline GPT-Live server (Responses delegation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inlineDataset } from '../../define/scenario.ts'
import type { Scenario } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { RULE_FAILURE_PARTS, TODO_LINE_ARCHITECTURES } from '../engine/offline-rule-failure.test-helpers.ts'
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
