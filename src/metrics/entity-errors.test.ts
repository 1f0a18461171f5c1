import { describe, expect, test } from 'vitest'
import { type EntityExpectation, entityErrors, entityKind, expectedEntities } from './entity-errors.ts'

const booking: EntityExpectation = {
  required_tools: [
    {
      name: 'create_reservation',
      arguments: { guest_name: 'Rivera', date: '2026-08-14', time: '19:00', party_size: 2 },
    },
  ],
  state: {
    reservations: [
      { reservation_id: 'R-100', guest_name: 'Okafor', date: '2026-08-01', time: '18:00' },
      { reservation_id: 'R-001', guest_name: 'Rivera', date: '2026-08-14', time: '19:00', party_size: 2 },
    ],
  },
  // Okafor's booking was there before the call: none of it is expected of the call.
  initial_state: {
    reservations: [{ reservation_id: 'R-100', guest_name: 'Okafor', date: '2026-08-01', time: '18:00' }],
  },
}

describe('entity errors', () => {
  test('entities are names, dates, times and ids; the same value twice is one, from the first place', () => {
    expect(
      ['guest_name', 'date', 'time', 'reservation_id', 'id', 'party_size', 'authorized_reservation_ids'].map(
        entityKind,
      ),
    ).toEqual(['name', 'date', 'time', 'id', 'id', null, null])
    expect(expectedEntities(booking).map(({ kind, source, value }) => [kind, source, value])).toEqual([
      ['name', 'tools.required[0].arguments.guest_name', 'Rivera'],
      ['date', 'tools.required[0].arguments.date', '2026-08-14'],
      ['time', 'tools.required[0].arguments.time', '19:00'],
      // Rivera, 2026-08-14 and 19:00 again in the state are the same entities; R-100 and Okafor's were there before.
      ['id', 'state.reservations[1].reservation_id', 'R-001'],
    ])
  })
  test('by entity: correct when the tool got it, altered when it got another value, said or missing otherwise', () => {
    const result = entityErrors(
      booking,
      // The tool got the name altered (Riviera) and the date and time right.
      [
        {
          name: 'create_reservation',
          arguments: { guest_name: 'Riviera', date: '2026-08-14', time: '19:00' },
        },
      ],
      // The id R-001 is said ("R 001" once normalised); the name is said right, but the record holds what the tool got.
      ['One moment.', 'Booked for Rivera at 7 p.m., reference R-001.'],
    )
    expect(
      result.by_entity.map(({ expected, status, found_in, observed }) => [
        expected,
        status,
        found_in,
        observed,
      ]),
    ).toEqual([
      ['Rivera', 'altered', 'tool', 'Riviera'],
      ['2026-08-14', 'correct', 'tool', null],
      ['19:00', 'correct', 'tool', null],
      ['R-001', 'correct', 'speech', null],
    ])
    // 4 entities, 1 altered + 0 missing = 1 error.
    expect(result).toMatchObject({ entities: 4, errors: 1 })
  })
  test('missing when neither a tool call nor speech carries it; spoken forms of dates and times count', () => {
    const result = entityErrors(booking, [], ['Rivera, your table is on August 14 at 7 p.m.'])
    expect(result.by_entity.map(({ status, found_in }) => [status, found_in])).toEqual([
      ['correct', 'speech'],
      ['correct', 'speech'], // "August 14" for 2026-08-14
      ['correct', 'speech'], // "7 p.m." for 19:00
      ['missing', null], // R-001 never said
    ])
    expect(result.errors).toBe(1)
  })
  test('a tool argument is checked on calls of the expected tool: another tool with the value does not make it right', () => {
    const result = entityErrors(
      {
        required_tools: [{ name: 'cancel_reservation', arguments: { reservation_id: 'R-100' } }],
        state: {},
        initial_state: {},
      },
      [{ name: 'lookup_reservation', arguments: { reservation_id: 'R-100' } }],
      [],
    )
    expect(result).toMatchObject({ entities: 1, errors: 1 })
    expect(result.by_entity[0]).toMatchObject({ status: 'missing' })
  })
  test('null errors when the scenario expects no entity (never 0)', () => {
    expect(
      entityErrors({ required_tools: [], state: { unchanged: true }, initial_state: {} }, [], ['Hello']),
    ).toEqual({
      entities: 0,
      errors: null,
      by_entity: [],
    })
  })
})
