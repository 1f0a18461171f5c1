// A scenario whose expected state the assistant does not reach: the tool adds "buy milk", the scenario expects
// "buy bread". Its failure must say where the states differ.
import { defineAssistant, defineScenario, scenarioSuite } from 'live-evals'

const todo = defineAssistant({
  name: 'todo-mismatch',
  instructions: 'You answer the phone for a to-do service. Adding tasks goes to the backend.',
  backendInstructions: 'Manage the caller’s tasks with the tools.',
  tools: [
    {
      name: 'add_task',
      description: 'Add a task.',
      parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      execute(args, { state }) {
        const tasks = state.tasks as unknown[]
        const task = { id: tasks.length + 1, title: String(args.title), done: false }
        tasks.push(task)
        return { ok: true, task }
      },
    },
  ],
  offline: {
    rules: [
      { when: /add .*task/i, call: { name: 'add_task', arguments: { title: 'buy milk' } }, answer: 'Added.' },
    ],
  },
})

await scenarioSuite({
  phase: 'crawl',
  assistant: todo,
  scenarios: [
    defineScenario({
      id: 'add_bread',
      title: 'Add a task',
      interaction: 'single_turn',
      input: { text: 'Please add a task to buy bread.' },
      application: { initial_state: { tasks: [] } },
      expected: {
        answer: 'The task to buy bread was added.',
        tools: { required: [{ name: 'add_task' }] },
        delegation: 'required',
        state: { tasks: [{ id: 1, title: 'buy bread', done: false }] },
      },
    }),
  ],
})
