// A deliberate type error: the scenario contract's types must reach the consumer through the .d.ts.
import { defineScenario } from 'live-evals'

export const wrong = defineScenario({
  id: 'typed',
  title: 'Typed',
  interaction: 'single_turn',
  input: { text: 'Hello' },
  expected: { answer: 'Hi', criteria: [], tools: { required: [], prohibited: [] }, delegation: 'sometimes' },
})
