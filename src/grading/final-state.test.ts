import { describe, expect, test } from 'vitest'
import { containsExpected, runOutcomeVerified, verifyFinalState, verifyRunFinalState } from './final-state.ts'
import { jsonEqual } from './json-values.ts'

describe('verifyFinalState (single-turn)', () => {
  test('{"unchanged": true} requires the final state to equal the initial state exactly', () => {
    const initial = { reservations: [{ id: 'R-100' }] }
    expect(verifyFinalState({ unchanged: true }, initial, { reservations: [{ id: 'R-100' }] })).toBe(true)
    expect(verifyFinalState({ unchanged: true }, initial, { reservations: [] })).toBe(false)
  })
  test('only the literal true means unchanged', () => {
    // "unchanged": "yes" is an ordinary expected key, which the final state lacks.
    expect(verifyFinalState({ unchanged: 'yes' }, { a: 1 }, { a: 1 })).toBe(false)
  })
  test('otherwise a normalized subset: "maya" and 2 are found in the final reservation', () => {
    const final = { guest_name: 'Maya', party_size: 2, reservation_id: 'R-001' }
    expect(verifyFinalState({ guest_name: 'maya', party_size: 2 }, {}, final)).toBe(true)
    expect(verifyFinalState({ guest_name: 'maya', party_size: 3 }, {}, final)).toBe(false)
  })
  test('an empty expectation passes vacuously', () => {
    expect(verifyFinalState({}, { a: 1 }, { b: 2 })).toBe(true)
  })
})

describe('RUN containment', () => {
  test('scalars must be identical, without normalization', () => {
    expect(containsExpected('R-101', 'R-101')).toBe(true)
    expect(containsExpected('maya', 'Maya')).toBe(false)
    expect(containsExpected(false, 0)).toBe(false)
  })
  test('objects are subsets', () => {
    expect(containsExpected({ cancelled: false }, { cancelled: false, id: 'x' })).toBe(true)
    expect(containsExpected({ cancelled: false }, { id: 'x' })).toBe(false)
    expect(containsExpected({ cancelled: false }, [{ cancelled: false }])).toBe(false)
  })
  test('each expected list item must be contained in some actual item, in any order', () => {
    const final = {
      reservations: [
        { reservation_id: 'R-100', cancelled: true },
        { reservation_id: 'R-101', cancelled: false, guest_name: 'Ana' },
      ],
    }
    expect(containsExpected({ reservations: [{ reservation_id: 'R-101', cancelled: false }] }, final)).toBe(
      true,
    )
    expect(containsExpected({ reservations: [{ reservation_id: 'R-101', cancelled: true }] }, final)).toBe(
      false,
    )
    expect(
      containsExpected({ reservations: [{ reservation_id: 'R-101' }, { reservation_id: 'R-100' }] }, final),
    ).toBe(true)
  })
  test('an expected key must be an own key of the actual object, not an inherited one', () => {
    // JSON.parse makes "__proto__" an own key; a plain lookup on the actual side would find Object.prototype.
    const expected = JSON.parse('{"__proto__": {}}') as Record<string, unknown>
    expect(containsExpected(expected, {})).toBe(false)
    expect(containsExpected(expected, JSON.parse('{"__proto__": {"a": 1}}'))).toBe(true)
  })
  test('unchanged means exact equality in RUN too', () => {
    expect(verifyRunFinalState({ unchanged: true }, { a: [1] }, { a: [1] })).toBe(true)
    expect(verifyRunFinalState({ unchanged: true }, { a: [1] }, { a: [1, 2] })).toBe(false)
  })
  test('a verified RUN outcome needs a non-empty expected state', () => {
    expect(verifyRunFinalState({}, {}, { a: 1 })).toBe(true)
    expect(runOutcomeVerified({}, {}, { a: 1 })).toBe(false)
    expect(runOutcomeVerified({ a: 1 }, {}, { a: 1 })).toBe(true)
  })
})

describe('jsonEqual', () => {
  test('ignores key order and compares nested values', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true)
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(jsonEqual([1, 2], [2, 1])).toBe(false)
    expect(jsonEqual({ a: true }, { a: 1 })).toBe(false)
  })
})
