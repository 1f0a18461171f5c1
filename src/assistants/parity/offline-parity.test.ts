import { describe, expect, test } from 'vitest'
import { conversationContext } from '../../scenarios/derived.ts'
import type { JsonObject } from '../offline-behaviour.ts'
import { bundledRows } from './bundled-datasets.ts'
import { copies, type RestaurantCopy } from './copies.ts'

const rows = await bundledRows()

// Utterances of our own on top of the datasets, so parity also covers paths the datasets do not.
const extraUtterances = [
  'Cancel R-200. Correction: cancel R-100.',
  'Please cancel r-101.',
  'Is there parking nearby?',
  'When do you close tonight?',
  'Book a patio table under Maya Lopez on August 7 at 9 p.m. for six.',
  'Is a patio table available on August 7 at 9 p.m. for six?',
  'Book under Maya on August 7, sorry, August 6 at 6:30 p.m. for two, actually three.',
  'Book a table on August 6 for two.',
  'Thanks, that is all.',
  'Can you check August 9 at 8pm for ten?',
  'The caller is Priya Shah. Reserve August 12 at 12 a.m. for 12.',
  'Jon Park requested a booking. Make it August 3 at 11 a.m. for one.',
  'The caller is Nguyen and wants to book August 4 at 7 p.m. for two.',
  'THE CALLER IS Nguyen Van An. Book August 4 at 7 p.m. for two.',
  'the caller is nguyen, book August 4 at 7 p.m. for two.',
  'Are you open on Sundays?',
  'Cancel my reservation, please.',
]
const extraState: JsonObject = {
  authorized_reservation_ids: ['R-100', 'R-101'],
  reservations: [
    {
      reservation_id: 'R-100',
      guest_name: 'Ana',
      date: '2026-08-11',
      time: '19:00',
      party_size: 2,
      cancelled: false,
    },
    {
      reservation_id: 'R-101',
      guest_name: 'Bo',
      date: '2026-08-12',
      time: '20:00',
      party_size: 4,
      cancelled: false,
    },
  ],
}

/** Everything one copy does with one visible input: decide, execute, answer. */
function play(copy: RestaurantCopy, context: string, initialState: JsonObject, userText: string) {
  const behaviour = new copy.RestaurantOfflineBehaviour({
    conversationContext: context,
    initialState,
    facts: copy.publicBusinessFacts(),
  })
  const call = behaviour.inferToolCall(userText)
  const directAnswer = behaviour.directAnswer(userText)
  if (call === null)
    return { call, directAnswer, output: null, state: null, executions: null, finalAnswer: null }
  const tools = new copy.RestaurantTools({ initialState })
  let output: JsonObject
  try {
    output = tools.execute(call.name, call.arguments, 'call-1')
  } catch (error) {
    if (!(error instanceof copy.RestaurantToolError)) throw error
    output = { ok: false, error: error.message }
  }
  return {
    call,
    directAnswer,
    output,
    state: tools.snapshot(),
    executions: tools.executions,
    finalAnswer: behaviour.finalAnswer(output),
  }
}

describe('offline behaviour parity over every bundled scenario', () => {
  test('the bundled datasets are there, CRAWL and RUN alike', () => {
    const count = (phase: string) => rows.filter((row) => row.file.includes(`/scenarios/${phase}/`)).length
    expect(count('crawl')).toBeGreaterThanOrEqual(21)
    expect(count('run')).toBeGreaterThanOrEqual(11)
  })

  test('our visible context text matches the contract rule', () => {
    for (const row of rows) expect(row.conversationContext).toBe(conversationContext(row.scenario))
  })

  test.each(rows.map((row) => [row.scenario.id, row] as const))('%s', (_id, row) => {
    const [responses, client] = copies
    const input = [row.conversationContext, row.visible.initialState, row.visible.inputText] as const
    expect(play(client, ...input)).toStrictEqual(play(responses, ...input))
  })
})

describe('offline behaviour parity over extra utterances', () => {
  test.each(extraUtterances)('%s', (text) => {
    const [responses, client] = copies
    expect(play(client, '', extraState, text)).toStrictEqual(play(responses, '', extraState, text))
  })
})
