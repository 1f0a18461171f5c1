import { describe, expect, it } from 'vitest'
import { contextMode, conversationContext, persona, scenarioType, simulationGoal } from './derived.ts'
import { multiTurnRaw, setPath, singleTurnRaw } from './fixtures/builders.ts'
import { type Scenario, ScenarioSchema } from './scenario.ts'
import { defaultPersona } from './simulation.ts'

const parse = (raw: Record<string, unknown>): Scenario => ScenarioSchema.parse(raw)
const history = [
  { role: 'user', text: 'Is the patio open?' },
  { role: 'assistant', text: 'It opens at noon.' },
]

describe('derived scenario properties', () => {
  it('renders the conversation context as the summary, then one line per history message', () => {
    const both = parse(
      setPath(singleTurnRaw(), 'input.context', { summary: 'Guest Ines called earlier.', history }),
    )
    expect(conversationContext(both)).toBe(
      'Guest Ines called earlier.\nuser: Is the patio open?\nassistant: It opens at noon.',
    )
    const historyOnly = parse(setPath(singleTurnRaw(), 'input.context', { history }))
    expect(conversationContext(historyOnly)).toBe('user: Is the patio open?\nassistant: It opens at noon.')
    expect(conversationContext(parse(singleTurnRaw()))).toBe('')
  })

  it('names the context mode', () => {
    const withContext = (context: unknown) =>
      contextMode(parse(setPath(singleTurnRaw(), 'input.context', context)))
    expect(contextMode(parse(singleTurnRaw()))).toBe('none')
    expect(withContext({ summary: 'earlier call' })).toBe('summary')
    expect(withContext({ history })).toBe('history')
    expect(withContext({ summary: 'earlier call', history })).toBe('summary_and_history')
  })

  it('uses the caller goal, else the expected answer, as the simulation goal', () => {
    const scenario = parse(multiTurnRaw())
    expect(simulationGoal(scenario)).toBe('Book Friday dinner for three.')
    const noGoal = parse(setPath(multiTurnRaw(), 'simulation_parameters.goal', ''))
    expect(simulationGoal(noGoal)).toBe(noGoal.expected.answer)
    expect(simulationGoal(parse(singleTurnRaw()))).toBe(parse(singleTurnRaw()).expected.answer)
  })

  it('returns a copy of the scenario persona, or the default persona', () => {
    const scenario = parse(
      setPath(multiTurnRaw(), 'simulation_parameters.persona', { id: 'hurried', voice: 'ash' }),
    )
    const own = persona(scenario)
    expect(own.voice).toBe('ash')
    own.backchannels.push('Okay.')
    expect(scenario.simulation_parameters?.persona.backchannels).toEqual(['Mm-hmm.', 'Right.'])
    expect(persona(parse(singleTurnRaw()))).toEqual(defaultPersona())
  })

  it('derives the scenario type from type, then the first tag, then the interaction', () => {
    expect(scenarioType(parse(singleTurnRaw()))).toBe('booking')
    const tagged = setPath(setPath(singleTurnRaw(), 'type', undefined), 'tags', ['correction', 'booking'])
    expect(scenarioType(parse(tagged))).toBe('correction')
    expect(scenarioType(parse(setPath(tagged, 'tags', [])))).toBe('single_turn')
  })
})
