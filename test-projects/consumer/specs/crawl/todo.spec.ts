// A team's own agent and scenario, written against the installed package only.
import { defineAssistant, defineScenario, scenarioSuite } from 'live-evals'

interface Task {
  id: number
  title: string
  done: boolean
}

const todo = defineAssistant({
  name: 'todo-line',
  instructions: 'You answer the phone for a to-do service. Adding or finishing tasks goes to the backend.',
  backendInstructions: 'Manage the caller’s tasks with the tools.',
  tools: [
    {
      name: 'add_task',
      description: 'Add a task.',
      parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      execute(args, { state }) {
        const tasks = state.tasks as Task[]
        const task = { id: tasks.length + 1, title: String(args.title), done: false }
        tasks.push(task)
        return { ok: true, task }
      },
    },
    {
      name: 'complete_task',
      description: 'Mark a task done.',
      parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      execute(args, { state }) {
        const task = (state.tasks as Task[]).find((candidate) => candidate.id === args.id)
        if (task === undefined) throw new Error(`no task ${String(args.id)}`)
        task.done = true
        return { ok: true, task }
      },
    },
  ],
  offline: {
    rules: [
      {
        when: /add .*task/i,
        call: {
          name: 'add_task',
          arguments: (text) => ({ title: /task to (.+?)[.?!]*$/i.exec(text)?.[1] ?? '' }),
        },
        // A refused call (a tool that threw) reaches the answer as { ok: false, error }.
        answer: (output) =>
          output.ok === false
            ? `Sorry, I couldn't add it: ${String(output.error)}.`
            : `Added: ${String((output.task as Task).title)}.`,
      },
    ],
  },
})

await scenarioSuite({
  phase: 'crawl',
  assistant: todo,
  scenarios: [
    defineScenario({
      id: 'add_milk',
      title: 'Add a task',
      type: 'add_task',
      interaction: 'single_turn',
      input: { text: 'Please add a task to buy milk.' },
      application: { initial_state: { tasks: [] } },
      expected: {
        answer: 'The task to buy milk was added.',
        criteria: ['Adds exactly one task.'],
        tools: { required: [{ name: 'add_task', arguments: { title: 'buy milk' } }], prohibited: [] },
        delegation: 'required',
        state: { tasks: [{ id: 1, title: 'buy milk', done: false }] },
      },
    }),
  ],
  async test({ liveSession, toolState, expect }) {
    expect(liveSession).toCompleteTask()
    expect(toolState.executions().map((call) => call.name)).toEqual(['add_task'])
  },
})
