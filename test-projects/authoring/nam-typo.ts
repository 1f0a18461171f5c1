// A deliberate typo in the field people write most: `nam` for `name` in an expected tool call.
import { defineScenario } from 'live-evals'

export const typo = defineScenario({
  id: 'typo',
  title: 'Typo',
  interaction: 'single_turn',
  input: { text: 'Hello' },
  expected: { answer: 'Hi', tools: { required: [{ nam: 'x' }] } },
})
