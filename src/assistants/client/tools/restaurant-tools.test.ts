import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { ToolArgumentError } from '../../runtime/tool-executor.ts'
import { RestaurantToolError } from './arguments.ts'
import { factsFile, publicBusinessFacts, restaurantFacts, restaurantToolDefinitions } from './resources.ts'
import { RestaurantTools } from './restaurant-tools.ts'

const booking = { guest_name: 'Maya', date: '2026-08-06', time: '19:00', party_size: 4 }

function expectRefused(run: () => unknown, message: string): void {
  let caught: unknown
  try {
    run()
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(RestaurantToolError)
  expect(caught).toBeInstanceOf(ToolArgumentError)
  expect((caught as Error).message).toBe(message)
}

/** Runs a call that must fail and proves it changed nothing and recorded nothing. */
function expectRefusedWithoutEffect(
  tools: RestaurantTools,
  name: string,
  args: unknown,
  message: string,
): void {
  const before = tools.snapshot()
  const executionsBefore = tools.executions
  expectRefused(() => tools.execute(name, args, 'call-x'), message)
  expect(tools.snapshot()).toEqual(before)
  expect(tools.executions).toEqual(executionsBefore)
}

describe('resources', () => {
  test('facts.json holds exactly the Juniper Table facts', () => {
    expect(JSON.parse(readFileSync(factsFile, 'utf8'))).toEqual({
      business_name: 'Juniper Table',
      reference_year: 2026,
      hours: '11:00 a.m. to 10:00 p.m. daily',
      parking: 'Complimentary parking is available in the adjacent restaurant lot.',
      availability_overrides: [{ date: '2026-08-07', time: '21:00', party_size: 6, available: false }],
    })
  })

  test('definitions list the three tools with their required and optional arguments', () => {
    const byName = Object.fromEntries(restaurantToolDefinitions().map((tool) => [tool.name, tool.parameters]))
    expect(Object.keys(byName)).toEqual(['check_availability', 'create_reservation', 'cancel_reservation'])
    expect(byName.check_availability?.required).toEqual(['date', 'time', 'party_size'])
    expect(Object.keys(byName.check_availability?.properties ?? {})).toEqual([
      'date',
      'time',
      'party_size',
      'seating',
    ])
    expect(byName.create_reservation?.required).toEqual(['guest_name', 'date', 'time', 'party_size'])
    expect(Object.keys(byName.create_reservation?.properties ?? {})).toContain('seating')
    expect(byName.cancel_reservation?.required).toEqual(['reservation_id'])
  })

  test('public business facts leave out the private overrides and do not touch the original', () => {
    const facts = restaurantFacts()
    const visible = publicBusinessFacts(facts)
    expect(visible).not.toHaveProperty('availability_overrides')
    expect(visible.business_name).toBe('Juniper Table')
    expect(facts).toHaveProperty('availability_overrides')
    expect(publicBusinessFacts()).toEqual(visible)
  })
})

describe('constructor', () => {
  test('initial state and facts must be JSON objects', () => {
    expectRefused(
      () => new RestaurantTools({ initialState: [] }),
      'Restaurant initial state must be a JSON object',
    )
    expectRefused(
      () => new RestaurantTools({ initialState: 'x' }),
      'Restaurant initial state must be a JSON object',
    )
    expectRefused(
      () => new RestaurantTools({ facts: [1] }),
      'Restaurant business facts must be a JSON object',
    )
    expectRefused(
      () => new RestaurantTools({ facts: null }),
      'Restaurant business facts must be a JSON object',
    )
  })

  test('initial state is deep-copied in and snapshots are deep copies out', () => {
    const initialState = {
      authorized_reservation_ids: ['R-100'],
      reservations: [{ reservation_id: 'R-100' }],
    }
    const tools = new RestaurantTools({ initialState })
    initialState.authorized_reservation_ids.push('R-999')
    expect(tools.snapshot()).toEqual({
      authorized_reservation_ids: ['R-100'],
      reservations: [{ reservation_id: 'R-100' }],
    })
    const snapshot = tools.snapshot()
    ;(snapshot.reservations as unknown[]).push('junk')
    expect(tools.snapshot().reservations).toHaveLength(1)
  })

  test('facts are deep-copied in', () => {
    const facts = restaurantFacts()
    const tools = new RestaurantTools({ facts })
    ;(facts.availability_overrides as unknown[]).length = 0
    const output = tools.execute('check_availability', { date: '2026-08-07', time: '21:00', party_size: 6 })
    expect(output.available).toBe(false)
  })

  test('default state is empty and default facts come from facts.json', () => {
    const tools = new RestaurantTools()
    expect(tools.snapshot()).toEqual({})
    expect(
      tools.execute('check_availability', { date: '2026-08-07', time: '21:00', party_size: 6 }).available,
    ).toBe(false)
  })
})

describe('argument validation', () => {
  test('arguments must be an object and the tool must be known', () => {
    const tools = new RestaurantTools()
    expectRefusedWithoutEffect(
      tools,
      'create_reservation',
      '{"guest_name":"Maya"}',
      'Restaurant tool arguments must be a JSON object',
    )
    expectRefusedWithoutEffect(
      tools,
      'create_reservation',
      [booking],
      'Restaurant tool arguments must be a JSON object',
    )
    expectRefusedWithoutEffect(
      tools,
      'delete_everything',
      {},
      'Unauthorized restaurant tool: delete_everything',
    )
  })

  test('required strings must be non-empty after trimming and are stored trimmed', () => {
    const tools = new RestaurantTools()
    for (const guest_name of [undefined, '', '   ', 7, null]) {
      expectRefusedWithoutEffect(
        tools,
        'create_reservation',
        { ...booking, guest_name },
        'create_reservation requires a nonempty guest_name',
      )
    }
    expectRefusedWithoutEffect(
      tools,
      'cancel_reservation',
      { reservation_id: ' ' },
      'cancel_reservation requires a nonempty reservation_id',
    )
    expectRefusedWithoutEffect(
      tools,
      'check_availability',
      { time: '19:00', party_size: 2 },
      'check_availability requires a nonempty date',
    )
    const output = tools.execute('create_reservation', { ...booking, guest_name: ' Maya ' })
    expect(output.guest_name).toBe('Maya')
    expect(tools.snapshot().guest_name).toBe('Maya')
  })

  test('dates must be real calendar dates and times real 24-hour times', () => {
    const tools = new RestaurantTools()
    const message = 'check_availability requires an ISO date and HH:MM time'
    for (const [date, time] of [
      ['2026-02-30', '19:00'],
      ['2026-02-29', '19:00'],
      ['1900-02-29', '19:00'],
      ['2026-13-01', '19:00'],
      ['2026-8-6', '19:00'],
      ['August 6', '19:00'],
      ['2026-08-06', '25:00'],
      ['2026-08-06', '19:60'],
      ['2026-08-06', '7pm'],
      ['2026-08-06', '19:00:00'],
    ]) {
      expectRefusedWithoutEffect(tools, 'check_availability', { date, time, party_size: 2 }, message)
    }
    expect(
      tools.execute('check_availability', { date: '2028-02-29', time: '7:05', party_size: 2 }),
    ).toMatchObject({
      date: '2028-02-29',
      time: '07:05',
    })
    expect(
      tools.execute('check_availability', { date: ' 2000-02-29 ', time: ' 23:59 ', party_size: 2 }),
    ).toMatchObject({
      date: '2000-02-29',
      time: '23:59',
    })
  })

  test('party size must be a positive integer, not a boolean or a string', () => {
    const tools = new RestaurantTools()
    for (const party_size of [0, -1, true, '2', 2.5, null, undefined]) {
      expectRefusedWithoutEffect(
        tools,
        'create_reservation',
        { ...booking, party_size },
        'create_reservation requires a positive party_size',
      )
    }
    expect(tools.execute('create_reservation', { ...booking, party_size: 1 }).party_size).toBe(1)
  })

  test('seating, when given, must be a non-empty string and is trimmed and case-folded', () => {
    const tools = new RestaurantTools()
    for (const seating of ['', '  ', 5, false]) {
      expectRefusedWithoutEffect(
        tools,
        'check_availability',
        { date: '2026-08-06', time: '19:00', party_size: 2, seating },
        'check_availability requires nonempty seating when provided',
      )
    }
    expect(
      tools.execute('check_availability', {
        date: '2026-08-06',
        time: '19:00',
        party_size: 2,
        seating: ' PATIO ',
      }).seating,
    ).toBe('patio')
    const withoutSeating = tools.execute('check_availability', {
      date: '2026-08-06',
      time: '19:00',
      party_size: 2,
      seating: null,
    })
    expect(withoutSeating).not.toHaveProperty('seating')
  })
})

describe('check_availability', () => {
  test('is available unless a private override matches, and never changes state', () => {
    const tools = new RestaurantTools({ initialState: { note: 'keep' } })
    expect(tools.execute('check_availability', { date: '2026-08-06', time: '19:00', party_size: 4 })).toEqual(
      {
        ok: true,
        date: '2026-08-06',
        time: '19:00',
        party_size: 4,
        available: true,
      },
    )
    expect(
      tools.execute('check_availability', { date: '2026-08-07', time: '21:00', party_size: 6 }).available,
    ).toBe(false)
    expect(
      tools.execute('check_availability', { date: '2026-08-07', time: '21:00', party_size: 5 }).available,
    ).toBe(true)
    expect(tools.snapshot()).toEqual({ note: 'keep' })
  })

  test('an override without a seating key also matches a seating request', () => {
    const tools = new RestaurantTools()
    expect(
      tools.execute('check_availability', {
        date: '2026-08-07',
        time: '21:00',
        party_size: 6,
        seating: 'Patio',
      }),
    ).toEqual({
      ok: true,
      date: '2026-08-07',
      time: '21:00',
      party_size: 6,
      seating: 'patio',
      available: false,
    })
  })

  test('the first matching override decides, and a missing available means available', () => {
    const facts = {
      availability_overrides: [
        { date: '2026-08-08', seating: 'patio', available: true },
        { date: '2026-08-08', available: false },
        { time: '18:00' },
        { time: '18:00', available: false },
      ],
    }
    const tools = new RestaurantTools({ facts })
    const check = (args: object) => tools.execute('check_availability', { party_size: 2, ...args }).available
    expect(check({ date: '2026-08-08', time: '19:00', seating: 'patio' })).toBe(true)
    expect(check({ date: '2026-08-08', time: '19:00' })).toBe(false)
    expect(check({ date: '2026-08-09', time: '18:00' })).toBe(true)
  })
})

describe('create_reservation', () => {
  test('allocates R-NNN from the list length, cancelled entries included', () => {
    const tools = new RestaurantTools({
      initialState: { reservations: [{ reservation_id: 'R-100', cancelled: true }] },
    })
    expect(tools.execute('create_reservation', booking).reservation_id).toBe('R-002')
    expect(tools.execute('create_reservation', booking).reservation_id).toBe('R-003')
    const fresh = new RestaurantTools()
    expect(fresh.execute('create_reservation', booking).reservation_id).toBe('R-001')
  })

  test('appends the booking, mirrors it at top level and returns it', () => {
    const tools = new RestaurantTools({ initialState: { authorized_reservation_ids: [] } })
    const output = tools.execute('create_reservation', { ...booking, seating: 'Patio' })
    expect(output).toEqual({
      ok: true,
      reservation_created: true,
      reservation_id: 'R-001',
      guest_name: 'Maya',
      date: '2026-08-06',
      time: '19:00',
      party_size: 4,
      seating: 'patio',
      cancelled: false,
    })
    expect(tools.snapshot()).toEqual({
      authorized_reservation_ids: [],
      reservations: [
        {
          reservation_id: 'R-001',
          guest_name: 'Maya',
          date: '2026-08-06',
          time: '19:00',
          party_size: 4,
          seating: 'patio',
          cancelled: false,
        },
      ],
      reservation_created: true,
      guest_name: 'Maya',
      date: '2026-08-06',
      time: '19:00',
      party_size: 4,
      seating: 'patio',
    })
  })

  test('reservations state must be a list', () => {
    const tools = new RestaurantTools({ initialState: { reservations: { 'R-1': {} } } })
    expectRefusedWithoutEffect(
      tools,
      'create_reservation',
      booking,
      'Restaurant reservations state must be a list',
    )
  })
})

describe('cancel_reservation', () => {
  const state = () => ({
    authorized_reservation_ids: ['R-100', 'R-101', 'R-404'],
    reservations: [
      { reservation_id: 'R-100', guest_name: 'Ana', cancelled: false },
      { reservation_id: 'R-101', guest_name: 'Bo', cancelled: true },
      { reservation_id: 'R-200', guest_name: 'Cy', cancelled: false },
    ],
  })

  test('cancels an authorized existing reservation', () => {
    const tools = new RestaurantTools({ initialState: state() })
    expect(tools.execute('cancel_reservation', { reservation_id: ' R-100 ' })).toEqual({
      ok: true,
      reservation_id: 'R-100',
      cancelled: true,
    })
    const after = tools.snapshot()
    expect(after.reservations).toEqual([
      { reservation_id: 'R-100', guest_name: 'Ana', cancelled: true },
      { reservation_id: 'R-101', guest_name: 'Bo', cancelled: true },
      { reservation_id: 'R-200', guest_name: 'Cy', cancelled: false },
    ])
    expect(after).toMatchObject({ reservation_id: 'R-100', cancelled: true })
  })

  test('refuses unauthorized, missing and already cancelled reservations without effect', () => {
    const tools = new RestaurantTools({ initialState: state() })
    expectRefusedWithoutEffect(
      tools,
      'cancel_reservation',
      { reservation_id: 'R-200' },
      'Not authorized to cancel reservation R-200',
    )
    expectRefusedWithoutEffect(
      tools,
      'cancel_reservation',
      { reservation_id: 'R-404' },
      'Reservation R-404 does not exist',
    )
    expectRefusedWithoutEffect(
      tools,
      'cancel_reservation',
      { reservation_id: 'R-101' },
      'Reservation R-101 is already cancelled',
    )
  })

  test('authorization must be a list: a string or a missing list authorizes nothing', () => {
    const asString = new RestaurantTools({
      initialState: { ...state(), authorized_reservation_ids: 'R-100' },
    })
    expectRefusedWithoutEffect(
      asString,
      'cancel_reservation',
      { reservation_id: 'R-100' },
      'Not authorized to cancel reservation R-100',
    )
    const { authorized_reservation_ids: _, ...withoutList } = state()
    const missing = new RestaurantTools({ initialState: withoutList })
    expectRefusedWithoutEffect(
      missing,
      'cancel_reservation',
      { reservation_id: 'R-100' },
      'Not authorized to cancel reservation R-100',
    )
  })
})

describe('executions', () => {
  test('record each completed call with its call id, the raw arguments and the output', () => {
    const tools = new RestaurantTools()
    const args = { ...booking, guest_name: ' Maya ' }
    const output = tools.execute('create_reservation', args, 'call-1')
    args.guest_name = 'changed later'
    tools.execute('check_availability', { date: '2026-08-06', time: '19:00', party_size: 2 })
    expect(tools.executions).toEqual([
      {
        call_id: 'call-1',
        name: 'create_reservation',
        arguments: { ...booking, guest_name: ' Maya ' },
        status: 'completed',
        output,
      },
      {
        call_id: null,
        name: 'check_availability',
        arguments: { date: '2026-08-06', time: '19:00', party_size: 2 },
        status: 'completed',
        output: { ok: true, date: '2026-08-06', time: '19:00', party_size: 2, available: true },
      },
    ])
  })

  test('returned outputs and execution lists are copies', () => {
    const tools = new RestaurantTools()
    const output = tools.execute('create_reservation', booking, 'call-1')
    output.reservation_id = 'tampered'
    const listed = tools.executions
    listed.length = 0
    expect(tools.executions[0]?.output.reservation_id).toBe('R-001')
  })
})
