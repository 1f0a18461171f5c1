// The README's to-do line with its refusal, and an `answer` that forgets a refused call has no task: the user's
// offline rule that throws, shared by the phases' offline_rule tests (single-turn/ and run/).
import { clientDelegation, offlineClientBackend } from '../../assistants/architectures/client.ts'
import type { AssistantArchitecture } from '../../assistants/architectures/index.ts'
import { responsesDelegation } from '../../assistants/architectures/responses.ts'
import { defineAssistant } from '../../define/assistant.ts'

export const todoLine = defineAssistant({
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

/** The to-do line in each architecture, as a spec file's suite runs it offline. */
export const TODO_LINE_ARCHITECTURES: Record<'responses' | 'client', () => AssistantArchitecture> = {
  responses: () => responsesDelegation(todoLine),
  client: () => clientDelegation(offlineClientBackend, todoLine),
}

/** What the failure says, in any phase: the assistant, the rule, the callback, the thrown error, what it was given. */
export const RULE_FAILURE_PARTS = [
  'assistant "todo-line", offline.rules[0] (when /add .*task/i): answer(output) threw',
  "TypeError: Cannot read properties of undefined (reading 'title')",
  'given {"ok":false,"error":"already on the list"}',
  'This is a bug in your offline rule, not a failure of live-evals',
]
