// A team's own agent whose backend is down for one scenario: the README's to-do line, with a custom test body. The
// scenario tagged `fault_profile:delegation-error` fails (its backend fails the delegation, so no task is added);
// `live-evals explain` on that run re-runs it through this file and names the fault profile as the cause.
import { defineAssistant, defineScenario, scenarioSuite } from 'live-evals'

interface Task {
  id: number
  title: string
  done: boolean
}

const todo = defineAssistant({
  name: 'todo-line',
  instructions: 'You answer the phone for a to-do service. Adding tasks goes to the backend.',
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
  ],
  offline: {
    rules: [
      {
        when: /add .*task/i,
        call: {
          name: 'add_task',
          arguments: (text) => ({ title: /task to (.+?)[.?!]*$/i.exec(text)?.[1] ?? '' }),
        },
        answer: (output) => `Added: ${String((output.task as Task).title)}.`,
      },
    ],
  },
})

const addTask = (id: string, title: string, tags: string[] = []) =>
  defineScenario({
    id,
    title: `Add a task to ${title}`,
    type: 'booking',
    interaction: 'single_turn',
    tags,
    input: { text: `Please add a task to ${title}.` },
    application: { initial_state: { tasks: [] } },
    expected: {
      answer: `The task to ${title} was added.`,
      criteria: ['Adds exactly one task.'],
      tools: { required: [{ name: 'add_task', arguments: { title } }], prohibited: [] },
      delegation: 'required',
      state: { tasks: [{ id: 1, title, done: false }] },
    },
  })

await scenarioSuite({
  phase: 'crawl',
  assistant: todo,
  scenarios: [
    addTask('add_milk', 'buy milk'),
    addTask('add_bread_backend_down', 'buy bread', ['fault_profile:delegation-error']),
  ],
  // The team's own check first: its failure is a check of its own in the row (and of every re-run).
  async test({ liveSession, toolState, expect }) {
    expect(
      toolState.executions().map((call) => call.name),
      'the task tool ran',
    ).toEqual(['add_task'])
    expect(liveSession).toCompleteTask()
  },
})
