import { describe, expect, test } from 'vitest'
import { defineAssistant } from '../define/assistant.ts'
import { defineScenario, inlineDataset } from '../define/scenario.ts'
import { suiteAssistantProblems } from './suite-assistant.ts'

const talker = {
  name: 'todo-line',
  instructions: 'Answer.',
  backendInstructions: 'Use the tools.',
  tools: [
    {
      name: 'add_task',
      parameters: { type: 'object' as const, properties: {} },
      execute: () => ({ ok: true }),
    },
  ],
}
const rules = { rules: [{ when: 'add', call: { name: 'add_task', arguments: {} } }] }

const scenarios = inlineDataset(
  [
    defineScenario({
      id: 'typo',
      title: 'Typo',
      interaction: 'single_turn',
      input: { text: 'Add a task.' },
      expected: {
        answer: 'Added.',
        tools: { required: [{ name: 'add_tsk' }], prohibited: [{ name: 'delete' }] },
      },
    }),
    defineScenario({
      id: 'fine',
      title: 'Fine',
      interaction: 'single_turn',
      input: { text: 'Add a task.' },
      expected: { answer: 'Added.', tools: { required: [{ name: 'add_task' }] } },
    }),
  ],
  '/spec.ts',
)

describe('the assistant a suite names, checked when the suite is collected', () => {
  test('an expected tool the assistant does not define is named with its scenario, path and the known tools', () => {
    expect(
      suiteAssistantProblems(defineAssistant({ ...talker, offline: rules }), scenarios, 'offline'),
    ).toEqual([
      'scenario typo: expected.tools.required[0].name is "add_tsk", which assistant "todo-line" does not define; its tools: add_task',
      'scenario typo: expected.tools.prohibited[0].name is "delete", which assistant "todo-line" does not define; its tools: add_task',
    ])
  })

  test('an assistant without offline rules is refused once for an offline run, and accepted live', () => {
    const fine = scenarios.filter((scenario) => scenario.id === 'fine')
    const offline = suiteAssistantProblems(defineAssistant(talker), fine, 'offline')
    expect(offline).toHaveLength(1)
    expect(offline[0]).toContain('assistant "todo-line" has no offline rules, so it cannot run offline')
    expect(suiteAssistantProblems(defineAssistant(talker), fine, 'live')).toEqual([])
  })

  test('a tool-less agent: any expected tool is a problem, and none is fine', () => {
    const none = defineAssistant({ ...talker, tools: [], offline: { rules: [] } })
    expect(suiteAssistantProblems(none, scenarios.slice(1), 'offline')).toEqual([
      'scenario fine: expected.tools.required[0].name is "add_task", which assistant "todo-line" does not define; it has no tools',
    ])
  })
})
