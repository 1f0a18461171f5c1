import { describe, expect, test } from 'vitest'
import type { JsonObject } from '../../offline-behaviour.ts'
import { publicBusinessFacts, restaurantFacts } from '../tools/resources.ts'
import { RestaurantOfflineBehaviour } from './restaurant-offline-behaviour.ts'

const authorizedState = { authorized_reservation_ids: ['R-100', 'R-101'], reservations: [] }

function behaviour(conversationContext = '', initialState: JsonObject = authorizedState, facts?: JsonObject) {
  return new RestaurantOfflineBehaviour(
    facts === undefined
      ? { conversationContext, initialState }
      : { conversationContext, initialState, facts },
  )
}

const infer = (text: string, context = '') => behaviour(context).inferToolCall(text)

describe('construction', () => {
  test('refuses facts that still carry the private availability overrides', () => {
    expect(() => behaviour('', {}, restaurantFacts())).toThrow(/availability_overrides.*publicBusinessFacts/)
    expect(() => behaviour('', {}, publicBusinessFacts())).not.toThrow()
  })

  test('keeps its own copy of the initial state', () => {
    const state = { authorized_reservation_ids: ['R-100'] }
    const offline = behaviour('', state)
    state.authorized_reservation_ids.length = 0
    expect(offline.inferToolCall('Cancel R-100.')).toEqual({
      name: 'cancel_reservation',
      arguments: { reservation_id: 'R-100' },
    })
  })
})

describe('inferToolCall: cancellations come first', () => {
  test('cancels the last id mentioned in context and text, uppercased, when authorized', () => {
    expect(infer('Please cancel r-101.')).toEqual({
      name: 'cancel_reservation',
      arguments: { reservation_id: 'R-101' },
    })
    expect(infer('Cancel R-200. Correction: cancel R-100.')?.arguments).toEqual({ reservation_id: 'R-100' })
    expect(infer('Yes, cancel that one.', 'user: My booking is R-101.')?.arguments).toEqual({
      reservation_id: 'R-101',
    })
  })

  test('an unauthorized, missing or string-authorized id gives no call', () => {
    expect(infer('Cancel R-200, please.')).toBeNull()
    expect(infer('I need to cancel my booking.')).toBeNull()
    expect(behaviour('', { authorized_reservation_ids: 'R-100' }).inferToolCall('Cancel R-100.')).toBeNull()
  })

  test('a cancel request is never read as a booking', () => {
    expect(infer('Cancel the table under Maya on August 6 at 7 p.m. for two.')).toBeNull()
  })
})

describe('inferToolCall: facts questions never delegate', () => {
  test.each([
    'Do you have parking for four people on August 6 at 7 p.m.?',
    'Is there a table available on August 6 at 7 p.m. for two, and what are your hours?',
    'Are you open on August 6 at 7 p.m. for two?',
    'When do you close on August 6? I want 7 p.m. for two.',
  ])('%s', (text) => {
    expect(infer(text)).toBeNull()
  })
})

describe('inferToolCall: details', () => {
  test.each([
    ['Book a table under Maya Lopez on August 6 at 7 p.m. for two.', 'Maya Lopez'],
    ['Please reserve a table for Bennett on August 6 at 7 p.m. for two.', 'Bennett'],
    ['The caller is Farouk. Book August 6 at 7 p.m. for two.', 'Farouk'],
    ['Gupta requested a booking on August 6 at 7 p.m. for two.', 'Gupta'],
    ['Hello. Gupta requested a booking on August 6 at 7 p.m. for two.', 'Gupta'],
  ])('name from %s', (text, name) => {
    expect(infer(text)?.arguments.guest_name).toBe(name)
  })

  test('"caller is" may come in any case, but the name stays capitalised words only', () => {
    const slot = 'Book August 6 at 7 p.m. for two.'
    expect(infer(`The caller is Nguyen and wants a table. ${slot}`)?.arguments.guest_name).toBe('Nguyen')
    expect(infer(`THE CALLER IS Nguyen Van An and wants a table. ${slot}`)?.arguments.guest_name).toBe(
      'Nguyen Van An',
    )
    expect(
      infer(`Book under Maya Lopez and friends on August 6 at 7 p.m. for two.`)?.arguments.guest_name,
    ).toBe('Maya Lopez')
    expect(infer(`The caller is nguyen. ${slot}`)).toBeNull()
  })

  test('a name needs one of the patterns; "requested" only counts at a sentence start', () => {
    expect(infer('Book a table on August 6 at 7 p.m. for two, we heard Gupta requested one.')).toBeNull()
    expect(infer('Book a table for Four on August 6 at 7 p.m.')).toBeNull()
  })

  test('dates use the reference year of the public facts, default 2026, last mention wins', () => {
    const text = 'Book under Maya on August 7, sorry, August 6 at 7 p.m. for two.'
    expect(infer(text)?.arguments.date).toBe('2026-08-06')
    const facts = { ...publicBusinessFacts(), reference_year: 2027 }
    expect(behaviour('', {}, facts).inferToolCall(text)?.arguments.date).toBe('2027-08-06')
    const { reference_year: _, ...noYear } = publicBusinessFacts()
    expect(behaviour('', {}, noYear).inferToolCall(text)?.arguments.date).toBe('2026-08-06')
  })

  test.each([
    ['7 p.m.', '19:00'],
    ['6:30 p.m.', '18:30'],
    ['8pm', '20:00'],
    ['11 a.m.', '11:00'],
    ['12 p.m.', '12:00'],
    ['12 a.m.', '00:00'],
  ])('time %s is %s', (spoken, time) => {
    expect(infer(`Book under Maya on August 6 at ${spoken} for two.`)?.arguments.time).toBe(time)
  })

  test.each([
    ['for two', 2],
    ['for ten', 10],
    ['for 12', 12],
    ['for two, actually four', 4],
    ['for 3 people', 3],
  ])('party %s is %d', (spoken, size) => {
    expect(infer(`Book under Maya on August 6 at 7 p.m. ${spoken}.`)?.arguments.party_size).toBe(size)
  })

  test('a clock time after "for" is not a party size', () => {
    expect(infer('Book under Maya on August 6 for 7 p.m.')).toBeNull()
    expect(infer('Book under Maya on August 6 for two, for 6:30 p.m.')?.arguments.party_size).toBe(2)
  })

  test('patio becomes the seating', () => {
    expect(infer('Book a Patio table under Maya on August 6 at 7 p.m. for two.')?.arguments.seating).toBe(
      'patio',
    )
    expect(infer('Book under Maya on August 6 at 7 p.m. for two.')?.arguments).not.toHaveProperty('seating')
  })

  test("the caller's words override the context field by field", () => {
    const context = 'The caller is Farouk. He asked about August 16 at 6 p.m. for two.'
    expect(infer('Book it for four at 7 p.m., please.', context)).toEqual({
      name: 'create_reservation',
      arguments: { guest_name: 'Farouk', date: '2026-08-16', time: '19:00', party_size: 4 },
    })
  })
})

describe('inferToolCall: intent', () => {
  const slot = 'on August 6 at 7 p.m. for two'
  test.each([
    `Is a table available ${slot}?`,
    `What is your availability ${slot}?`,
    `Do you have a table ${slot}?`,
    `Is there room ${slot}?`,
    `Can you check ${slot}?`,
  ])('availability: %s', (text) => {
    expect(infer(text)).toEqual({
      name: 'check_availability',
      arguments: { date: '2026-08-06', time: '19:00', party_size: 2 },
    })
  })

  test('intent words count inside longer words, as the reference reads them', () => {
    expect(infer(`Could I get reservations under Maya ${slot}?`)?.name).toBe('create_reservation')
    expect(infer(`Please rebook under Maya ${slot}.`)?.name).toBe('create_reservation')
    expect(infer(`Tell me if it is unavailable ${slot}.`)?.name).toBe('check_availability')
  })

  test('availability wins over booking and never needs a name', () => {
    expect(infer(`Before you book under Maya, is it available ${slot}?`)?.name).toBe('check_availability')
  })

  test('booking intent may come from the context', () => {
    const context = 'The caller is Farouk and wants a reservation on August 16 for two.'
    expect(infer('At 7 p.m. then.', context)?.name).toBe('create_reservation')
    expect(infer('At 7 p.m. then.', 'The caller is Farouk, on August 16 for two.')).toBeNull()
    expect(infer('Let us make it 7 p.m.', 'The caller is Farouk, on August 16 for two.')?.name).toBe(
      'create_reservation',
    )
  })

  test('anything missing means no call', () => {
    expect(infer('Book under Maya on August 6 at 7 p.m.')).toBeNull()
    expect(infer('Book under Maya at 7 p.m. for two.')).toBeNull()
    expect(infer('Book under Maya on August 6 for two.')).toBeNull()
    expect(infer('Book a table on August 6 at 7 p.m. for two.')).toBeNull()
    expect(infer(`Is there a table ${slot.replace(' at 7 p.m.', '')}?`)).toBeNull()
  })
})

describe('directAnswer', () => {
  test.each([
    ['I need to cancel my booking.', 'Which reservation ID would you like to cancel?'],
    ['Cancel R-200.', "I can't cancel a reservation that you aren't authorized to manage."],
    ['Cancel r-100.', 'Should I cancel reservation R-100?'],
    ['Is there parking?', 'Complimentary parking is available in the adjacent restaurant lot.'],
    ['What are your hours?', 'Our restaurant hours are 11:00 a.m. to 10:00 p.m. daily.'],
    ['When do you open?', 'Our restaurant hours are 11:00 a.m. to 10:00 p.m. daily.'],
    ['Book a table on August 6 for two.', 'What name and time would you like for the reservation?'],
    ['Book a table on August 6 at 7 p.m. for two.', 'What name should I put on the reservation?'],
    ['Book under Maya on August 6 for two.', 'What time would you like the reservation?'],
  ])('%s', (text, answer) => {
    expect(behaviour().directAnswer(text)).toBe(answer)
  })
})

describe('finalAnswer', () => {
  const offline = behaviour()
  test('a failed tool result', () => {
    expect(offline.finalAnswer({ ok: false, error: 'Not authorized to cancel reservation R-200' })).toBe(
      "I couldn't complete that restaurant request.",
    )
    // A result that is not ok claims nothing, even when it carries fields of a successful one.
    for (const output of [
      { ok: false, cancelled: true, reservation_id: 'R-100' },
      { ok: false, date: '2026-08-07', time: '21:00', party_size: 6, available: true },
    ]) {
      expect(offline.finalAnswer(output)).toBe("I couldn't complete that restaurant request.")
    }
  })

  test('availability, with and without seating', () => {
    expect(
      offline.finalAnswer({ ok: true, date: '2026-08-07', time: '21:00', party_size: 6, available: false }),
    ).toBe('A table for 6 is not available on 2026-08-07 at 21:00. No reservation has been made.')
    expect(
      offline.finalAnswer({
        ok: true,
        date: '2026-08-06',
        time: '19:00',
        party_size: 2,
        seating: 'patio',
        available: true,
      }),
    ).toBe('A patio table for 2 is available on 2026-08-06 at 19:00. No reservation has been made.')
  })

  test('a booking, with and without seating', () => {
    const output = {
      ok: true,
      reservation_created: true,
      reservation_id: 'R-001',
      guest_name: 'Maya',
      date: '2026-08-06',
      time: '19:00',
      party_size: 2,
      cancelled: false,
    }
    expect(offline.finalAnswer(output)).toBe(
      'Your reservation for Maya and 2 guests is confirmed on 2026-08-06 at 19:00.',
    )
    expect(offline.finalAnswer({ ...output, seating: 'patio' })).toBe(
      'Your patio reservation for Maya and 2 guests is confirmed on 2026-08-06 at 19:00.',
    )
  })

  test('a cancellation', () => {
    expect(offline.finalAnswer({ ok: true, reservation_id: 'R-100', cancelled: true })).toBe(
      'Reservation R-100 has been cancelled.',
    )
  })
})
