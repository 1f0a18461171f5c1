// An offline rule of the user's own assistant that throws fails its scenario at stage offline_rule, with a message
// that names the rule and the thrown error, and the same way whichever architecture ran the rule: in this process
// (the client backend) or in the offline GPT-Live server (Responses delegation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientDelegation, offlineClientBackend } from '../../assistants/architectures/client.ts'
import { responsesDelegation } from '../../assistants/architectures/responses.ts'
import { defineAssistant } from '../../define/assistant.ts'
import { inlineDataset } from '../../define/scenario.ts'
import type { Scenario } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { executeScenario, freshRunDirectory, offlineCrawlSettings, offlineEnv } from './test-support.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

// The README's to-do line with its refusal, and an `answer` that forgets a refused call has no task.
const todo = defineAssistant({
  name: 'todo-line',
  instructions: 'You answer the phone for a to-do service. Adding tasks goes to the backend.',
  backendInstructions: 'Manage the caller’s tasks with the tools.',
  tools: [
    {
      name: 'add_task',
      parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      execute(args, { state }) {
        const tasks = state.tasks as { title: string }[]
        if (tasks.some((task) => task.title === args.title)) throw new Error('already on the list')
        tasks.push({ title: String(args.title) })
        return { ok: true, task: { title: String(args.title) } }
      },
    },
  ],
  offline: {
    rules: [
      {
        when: /add .*task/i,
        call: { name: 'add_task', arguments: { title: 'buy milk' } },
        answer: (output) => `Added: ${String((output.task as { title: string }).title)}.`,
      },
    ],
  },
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

const architectures = {
  responses: responsesDelegation(todo),
  client: clientDelegation(offlineClientBackend, todo),
}

describe('an offline rule that throws', () => {
  it.each(Object.keys(architectures) as (keyof typeof architectures)[])(
    'fails its scenario at offline_rule naming the rule, the callback and the error (%s)',
    async (name) => {
      const settings = await offlineCrawlSettings({ timeoutSeconds: 10 })
      const env = offlineEnv(settings, server, await freshRunDirectory(), name, {
        architecture: architectures[name],
      })
      const execution = await executeScenario(duplicate as Scenario, env)
      expect(execution.failure?.stage).toBe('offline_rule')
      const message = execution.failure?.message ?? ''
      expect(message).toContain(
        'assistant "todo-line", offline.rules[0] (when /add .*task/i): answer(output) threw',
      )
      expect(message).toContain("TypeError: Cannot read properties of undefined (reading 'title')")
      expect(message).toContain('given {"ok":false,"error":"already on the list"}')
      expect(message).toContain('This is a bug in your offline rule, not a failure of live-evals')
      expect(message).toContain('offline-rule-failure.test.ts')
      expect(execution.row.error).toMatchObject({ stage: 'offline_rule', message })
    },
  )
})
