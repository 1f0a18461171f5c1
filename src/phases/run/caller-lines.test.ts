// The scripted caller's own lines for agenda items without a response hint: what a caller would say (a closing, the
// facts, the corrected value, the request asked again), never the item's commitment or trigger, which are stage
// directions. The sentinel call proves it end to end: no direction reaches the caller's audio, hearing or captions.
import { describe, expect, it } from 'vitest'
import { SimulationParametersSchema } from '../../scenarios/simulation.ts'
import { type OfflineSessionScript, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { derivedCallerLine, spokenFact, spokenStageDirections } from './caller-lines.ts'
import { bundledRunScenario, playBundled } from './conversation.test-helpers.ts'
import { scriptedCallerLines } from './offline-caller.ts'

const item = (action: string, facts: string[] = [], commitment = 'Do what the scenario needs.') => ({
  id: `item_${action}`,
  action,
  facts,
  commitment,
  trigger_condition: 'when the assistant asks',
  completion_condition: 'done',
})

const parametersWith = (agenda: ReturnType<typeof item>[], known_facts: Record<string, unknown> = {}) =>
  SimulationParametersSchema.parse({ known_facts: { placeholder: 'x', ...known_facts }, agenda })

const lineOf = (
  entry: ReturnType<typeof item>,
  known_facts: Record<string, unknown> = {},
  said: string[] = ['Hi.'],
) => {
  const parameters = parametersWith([entry], known_facts)
  return derivedCallerLine(parameters.agenda[0] as (typeof parameters.agenda)[number], parameters, said)
}

describe('a line of the caller’s own for an item without a hint', () => {
  it('finish: a closing, and a short one when the caller already said goodbye', () => {
    expect(lineOf(item('finish', [], 'Confirm the booking, then end the call.'))).toBe(
      'Thanks for your help. Goodbye.',
    )
    expect(lineOf(item('finish'), {}, ['Hi.', 'Perfect, thanks, bye!'])).toBe('Bye now.')
  })

  it('answer: the facts, each as a caller says it', () => {
    expect(lineOf(item('answer', ['guest_name']), { guest_name: 'Okafor' })).toBe("It's under Okafor.")
    expect(lineOf(item('answer', ['time']), { time: '8 p.m.' })).toBe("It's at 8 p.m.")
    expect(lineOf(item('answer', ['reservation_id']), { reservation_id: 'R-101' })).toBe("It's R-101.")
    expect(
      lineOf(item('answer', ['guest_name', 'date', 'party_size', 'by_car']), {
        guest_name: 'Rivera',
        date: 'August 14',
        party_size: 2,
        by_car: true,
      }),
    ).toBe("That's under Rivera, on August 14, for two.")
    expect(spokenFact('alternative_time', '8 p.m.')).toBe('at 8 p.m.')
  })

  it('correct: the corrected value against the superseded one', () => {
    const facts = { date: 'August 8', wrong_date: 'August 7', party_size: 4, wrong_party_size: 2 }
    expect(lineOf(item('correct', ['wrong_date', 'date']), facts)).toBe(
      'Sorry, I got that wrong: not August 7, it should be on August 8.',
    )
    expect(lineOf(item('correct', ['party_size']), facts)).toBe(
      'Sorry, I got that wrong: not two, it should be for four.',
    )
  })

  it('an item that asks again says the opening request again, without its greeting', () => {
    const again = item('answer', ['reservation_id'], 'Insist once more that it is urgent.')
    expect(lineOf(again, { reservation_id: 'R-200' }, ['Hello, please cancel reservation R-200.'])).toBe(
      'I have to ask again: please cancel reservation R-200.',
    )
    // "Repeat the details back" is an answer, not a request asked again.
    const readBack = item('answer', ['guest_name'], 'Repeat the confirmed name back to the assistant.')
    expect(lineOf(readBack, { guest_name: 'Rivera' })).toBe("It's under Rivera.")
  })

  it('a hint, when there is one, is said as written', () => {
    const parameters = parametersWith([
      { ...item('answer'), response_hint: 'Under Okafor, please.' } as never,
    ])
    expect(scriptedCallerLines(parameters, 'Hi.').map((line) => line.text)).toEqual([
      'Hi.',
      'Under Okafor, please.',
      'Thanks, goodbye.',
    ])
  })

  it('finds a stage direction said inside a line, whatever its case and punctuation', () => {
    const agenda = [{ commitment: 'Confirm the booking, then end the call.', trigger_condition: 'once done' }]
    expect(spokenStageDirections('OK. confirm the booking then end the call!', agenda)).toEqual([
      'Confirm the booking, then end the call.',
    ])
    expect(spokenStageDirections('Thanks, goodbye.', agenda)).toEqual([])
  })
})

describe('sentinel: no commitment or trigger reaches the caller’s audio or captions', () => {
  it('an agenda of hint-less items with sentinel directions is played without saying any of them', async () => {
    const scenario = await bundledRunScenario('ref_001_booking_complete', 'reference-style.json')
    const parameters = scenario.simulation_parameters
    if (parameters === null) throw new Error('RUN scenario without parameters')
    const directions: string[] = []
    for (const [index, entry] of parameters.agenda.entries()) {
      entry.response_hint = ''
      entry.commitment = `Sentinel commitment ${index} confirm the booking then end the call`
      entry.trigger_condition = `sentinel trigger ${index} after the assistant confirms`
      directions.push(entry.commitment, entry.trigger_condition)
    }
    const server = await startOfflineLiveServer()
    const scripts: OfflineSessionScript[] = []
    const register = server.registerSession.bind(server)
    server.registerSession = (token, script) => {
      scripts.push(script)
      register(token, script)
    }
    try {
      const conversation = await playBundled(server, scenario, 'responses')
      const said = [
        ...conversation.plan.map((utterance) => utterance.text),
        ...scripts.flatMap((script) => script.hearing.map((heard) => heard.text)),
        ...conversation.call.timeline.lines().flatMap((line) => (line.role === 'user' ? [line.text] : [])),
      ]
      expect(said.length).toBeGreaterThan(4)
      const lowered = said.join('\n').toLowerCase()
      expect(lowered).not.toContain('sentinel')
      for (const text of said) expect(spokenStageDirections(text, parameters.agenda)).toEqual([])
      // The caller still played its part: one booking, then the goodbye.
      const made = conversation.call.assistant.tools.executions().map((record) => record.name)
      expect(made).toEqual(['create_reservation'])
      expect(conversation.plan.at(-1)?.action).toBe('STOP')
    } finally {
      await server.close()
    }
  }, 60_000)
})
