import { describe, expect, it } from 'vitest'
import { multiTurnRaw, type RawObject, setPath } from './fixtures/builders.ts'
import { pathsAndMessages, violationsOf } from './fixtures/violations-of.ts'
import { CallerAgendaItemSchema, defaultPersona, SimulationParametersSchema } from './simulation.ts'

const only = (scenario: RawObject) => pathsAndMessages(violationsOf([scenario]))

function agendaOf(scenario: RawObject): RawObject[] {
  return (scenario.simulation_parameters as { agenda: RawObject[] }).agenda
}

describe('simulation parameters', () => {
  it('gives the documented default persona', () => {
    expect(defaultPersona()).toEqual({
      id: 'default',
      description: 'A polite, concise caller who stops once their request is resolved.',
      voice: 'coral',
      speech_instructions: '',
      verbosity: 'brief',
      interrupt_tendency: 0.15,
      backchannel_tendency: 0.25,
      backchannels: ['Mm-hmm.', 'Right.'],
    })
    expect(defaultPersona()).not.toBe(defaultPersona())
  })

  it('uses the default persona when it is missing or null, and fills partial personas', () => {
    expect(SimulationParametersSchema.parse({}).persona).toEqual(defaultPersona())
    expect(SimulationParametersSchema.parse({ persona: null }).persona).toEqual(defaultPersona())
    expect(SimulationParametersSchema.parse({ persona: { voice: 'sage' } }).persona.backchannels).toEqual([
      'Mm-hmm.',
      'Right.',
    ])
  })

  it('keeps tendencies within [0, 1]', () => {
    const scenario = setPath(multiTurnRaw(), 'simulation_parameters.persona', { interrupt_tendency: 1.5 })
    expect(only(scenario)).toEqual([
      'scenarios[0].simulation_parameters.persona.interrupt_tendency: must be <= 1, got 1.5',
    ])
    const negative = setPath(multiTurnRaw(), 'simulation_parameters.persona', { backchannel_tendency: -0.1 })
    expect(only(negative)).toHaveLength(1)
  })

  it('accepts only scalar known facts', () => {
    const scenario = setPath(multiTurnRaw(), 'simulation_parameters.known_facts.extra', { nested: true })
    expect(only(scenario)[0]).toMatch(/^scenarios\[0\]\.simulation_parameters\.known_facts\.extra: /)
  })
})

describe('caller agenda rules', () => {
  it('fills the agenda item defaults', () => {
    const item = {
      id: 'a',
      commitment: 'c',
      trigger_condition: 't',
      completion_condition: 'd',
      action: 'answer',
    }
    expect(CallerAgendaItemSchema.parse(item)).toEqual({
      ...item,
      completion_basis: 'expression',
      wording_policy: 'adapt_to_live_context',
      facts: [],
      response_hint: '',
      after: [],
      required: true,
    })
    expect(SimulationParametersSchema.parse({})).toMatchObject({
      goal: '',
      known_facts: {},
      expectations: [],
      agenda: [],
    })
  })

  it('refuses duplicate agenda item ids', () => {
    const scenario = multiTurnRaw()
    const [first] = agendaOf(scenario)
    agendaOf(scenario).push({ ...first, after: [] })
    expect(only(scenario)).toEqual([
      'scenarios[0].simulation_parameters.agenda[2].id: duplicate caller agenda item "give_details"',
    ])
  })

  it('requires facts to be keys of known_facts', () => {
    const scenario = multiTurnRaw()
    ;(agendaOf(scenario)[0] as RawObject).facts = ['guest_name', 'phone']
    expect(only(scenario)).toEqual([
      'scenarios[0].simulation_parameters.agenda[0].facts: caller agenda item "give_details" references unknown facts "phone"; facts must be keys of known_facts',
    ])
  })

  it('lets `after` reference only earlier items', () => {
    const scenario = multiTurnRaw()
    ;(agendaOf(scenario)[0] as RawObject).after = ['fix_time']
    expect(only(scenario)).toEqual([
      'scenarios[0].simulation_parameters.agenda[0].after: caller agenda item "give_details" references missing prior items "fix_time"; after may only name earlier items',
    ])
  })

  it('requires an action and the non-empty conditions', () => {
    const scenario = multiTurnRaw()
    const item = agendaOf(scenario)[0] as RawObject
    delete item.action
    item.trigger_condition = ''
    expect(only(scenario)).toEqual([
      'scenarios[0].simulation_parameters.agenda[0].trigger_condition: must not be empty',
      'scenarios[0].simulation_parameters.agenda[0].action: missing required field (one of "answer", "correct", "backchannel", "interrupt", "finish", "wait")',
    ])
  })
})
