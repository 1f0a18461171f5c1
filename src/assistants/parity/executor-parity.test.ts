import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import type { JsonObject } from '../offline-behaviour.ts'
import { ToolRuntime } from '../runtime/tool-runtime.ts'
import { copies, runCalls } from './copies.ts'

const [responses, client] = copies

const authorizedState = (): JsonObject => ({
  authorized_reservation_ids: ['R-100', 'R-101', 'R-404'],
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
      cancelled: true,
    },
    {
      reservation_id: 'R-200',
      guest_name: 'Cy',
      date: '2026-08-13',
      time: '18:00',
      party_size: 3,
      cancelled: false,
    },
  ],
})

const slot = { date: '2026-08-06', time: '19:00', party_size: 2 }
const booking = { guest_name: 'Maya', ...slot }

// Each case is a sequence on one fresh executor: successes, every refusal message, and the effect of
// earlier calls on later ones (ids, cancellations).
const cases: [string, JsonObject, { name: string; args: unknown }[]][] = [
  [
    'availability',
    {},
    [
      { name: 'check_availability', args: slot },
      { name: 'check_availability', args: { date: '2026-08-07', time: '21:00', party_size: 6 } },
      {
        name: 'check_availability',
        args: { date: '2026-08-07', time: '21:00', party_size: 6, seating: ' PATIO ' },
      },
      { name: 'check_availability', args: { ...slot, time: '7:5', seating: null } },
    ],
  ],
  [
    'argument refusals',
    {},
    [
      { name: 'check_availability', args: '{"date":"2026-08-06"}' },
      { name: 'check_availability', args: [slot] },
      { name: 'drop_tables', args: {} },
      { name: 'check_availability', args: { time: '19:00', party_size: 2 } },
      { name: 'check_availability', args: { ...slot, date: '2026-02-30' } },
      { name: 'check_availability', args: { ...slot, time: '25:00' } },
      { name: 'check_availability', args: { ...slot, party_size: 0 } },
      { name: 'check_availability', args: { ...slot, party_size: -1 } },
      { name: 'check_availability', args: { ...slot, party_size: true } },
      { name: 'check_availability', args: { ...slot, party_size: '2' } },
      { name: 'check_availability', args: { ...slot, seating: '  ' } },
      { name: 'create_reservation', args: { ...booking, guest_name: ' ' } },
      { name: 'cancel_reservation', args: {} },
    ],
  ],
  [
    'bookings',
    { reservations: [{ reservation_id: 'R-100', cancelled: true }] },
    [
      { name: 'create_reservation', args: { ...booking, guest_name: ' Maya ' } },
      { name: 'create_reservation', args: { ...booking, seating: 'Patio', party_size: 5 } },
      { name: 'create_reservation', args: { ...booking, date: '2026-13-01' } },
    ],
  ],
  [
    'reservations state not a list',
    { reservations: 'none' },
    [{ name: 'create_reservation', args: booking }],
  ],
  [
    'cancellations',
    authorizedState(),
    [
      { name: 'cancel_reservation', args: { reservation_id: 'R-200' } },
      { name: 'cancel_reservation', args: { reservation_id: 'R-404' } },
      { name: 'cancel_reservation', args: { reservation_id: 'R-101' } },
      { name: 'cancel_reservation', args: { reservation_id: ' R-100 ' } },
      { name: 'cancel_reservation', args: { reservation_id: 'R-100' } },
    ],
  ],
  [
    'authorization given as a string',
    { ...authorizedState(), authorized_reservation_ids: 'R-100' },
    [{ name: 'cancel_reservation', args: { reservation_id: 'R-100' } }],
  ],
]

describe('executor parity', () => {
  test.each(cases)('%s: same outputs, errors, states and executions', (_label, initialState, calls) => {
    const fromResponses = runCalls(responses, initialState, calls)
    expect(runCalls(client, initialState, calls)).toStrictEqual(fromResponses)
    // Not vacuous: each sequence did something observable.
    expect(fromResponses.some((outcome) => outcome.output !== null || outcome.error !== null)).toBe(true)
  })

  test.each(copies)('$label: a refused call never mutates state nor records an execution', (copy) => {
    let refusals = 0
    for (const [, initialState, calls] of cases) {
      let previous = { state: initialState, executions: [] as unknown[] }
      for (const outcome of runCalls(copy, initialState, calls)) {
        if (outcome.error !== null) {
          refusals += 1
          expect(outcome.state).toEqual(previous.state)
          expect(outcome.executions).toEqual(previous.executions)
        }
        previous = outcome
      }
    }
    expect(refusals).toBeGreaterThanOrEqual(18)
  })

  test('refusal messages are the contract wording', () => {
    const errors = cases.flatMap(([, state, calls]) =>
      runCalls(responses, state, calls).map((outcome) => outcome.error),
    )
    expect(errors).toEqual(
      expect.arrayContaining([
        'Restaurant tool arguments must be a JSON object',
        'Unauthorized restaurant tool: drop_tables',
        'check_availability requires a nonempty date',
        'check_availability requires an ISO date and HH:MM time',
        'check_availability requires a positive party_size',
        'check_availability requires nonempty seating when provided',
        'create_reservation requires a nonempty guest_name',
        'cancel_reservation requires a nonempty reservation_id',
        'Restaurant reservations state must be a list',
        'Not authorized to cancel reservation R-200',
        'Reservation R-404 does not exist',
        'Reservation R-101 is already cancelled',
        'Reservation R-100 is already cancelled',
        'Not authorized to cancel reservation R-100',
      ]),
    )
  })

  test('through the tool runtime both copies give the same records, failures included', async () => {
    const calls = [
      {
        callId: 'a',
        name: 'check_availability',
        arguments: '{"date":"2026-08-06","time":"19:00","party_size":2,"seating":null}',
      },
      { callId: 'b', name: 'create_reservation', arguments: '{"guest_name":"Maya","date":"2026-08-06"' },
      { callId: 'c', name: 'cancel_reservation', arguments: '{"reservation_id":"R-200"}' },
      { callId: 'd', name: 'cancel_reservation', arguments: '{"reservation_id":"R-100"}' },
      { callId: 'd', name: 'cancel_reservation', arguments: '{"reservation_id":"R-100"}' },
    ]
    const logs = []
    for (const copy of copies) {
      const runtime = new ToolRuntime(new copy.RestaurantTools({ initialState: authorizedState() }))
      const outputs = []
      for (const call of calls) outputs.push((await runtime.run(call)).outputJson)
      logs.push({ outputs, executions: runtime.executions(), state: runtime.snapshot() })
    }
    expect(logs[1]).toStrictEqual(logs[0])
    expect(logs[0]?.executions.map((record) => record.status)).toEqual([
      'completed',
      'failed',
      'failed',
      'completed',
    ])
  })
})

describe('isolation', () => {
  test.each(copies)('$label: executors built from one state never share it', (copy) => {
    const initialState = authorizedState()
    const first = new copy.RestaurantTools({ initialState })
    const second = new copy.RestaurantTools({ initialState })
    first.execute('cancel_reservation', { reservation_id: 'R-100' })
    first.execute('create_reservation', booking)
    expect(second.snapshot()).toEqual(authorizedState())
    expect(initialState).toEqual(authorizedState())
    expect(second.executions).toEqual([])
  })

  test('an executor of one copy never touches an executor of the other', () => {
    const initialState = authorizedState()
    const fromResponses = new responses.RestaurantTools({ initialState })
    const fromClient = new client.RestaurantTools({ initialState })
    fromClient.execute('cancel_reservation', { reservation_id: 'R-100' })
    expect(fromResponses.snapshot()).toEqual(authorizedState())
    expect(fromResponses.execute('cancel_reservation', { reservation_id: 'R-100' }).cancelled).toBe(true)
  })

  test.each(copies)('$label: using and mutating facts never changes the facts file', (copy) => {
    const before = readFileSync(copy.factsFile, 'utf8')
    const facts = copy.restaurantFacts()
    const tools = new copy.RestaurantTools({ facts })
    ;(facts.availability_overrides as unknown[]).length = 0
    facts.hours = 'never'
    tools.execute('create_reservation', booking)
    expect(readFileSync(copy.factsFile, 'utf8')).toBe(before)
    const fresh = new copy.RestaurantTools()
    expect(
      fresh.execute('check_availability', { date: '2026-08-07', time: '21:00', party_size: 6 }).available,
    ).toBe(false)
    expect(copy.restaurantFacts().hours).toBe('11:00 a.m. to 10:00 p.m. daily')
  })
})
