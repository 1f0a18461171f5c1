import { describe, expect, test } from 'vitest'
import { verifyFinalState, verifyRunFinalState } from './final-state.ts'
import { describeStateDifferences, stateDifferences } from './state-differences.ts'

const initial = {
  prescriptions: [
    { id: 'rx1', drug: 'amoxicillin', refills_left: 1 },
    { id: 'rx2', drug: 'lisinopril', refills_left: 3 },
  ],
}
const final = {
  prescriptions: [
    { id: 'rx1', drug: 'amoxicillin', refills_left: 1 },
    { id: 'rx2', drug: 'lisinopril', refills_left: 3 },
  ],
  note: 'called',
}
const expected = {
  prescriptions: [
    { id: 'rx1', refills_left: 1 },
    { id: 'rx2', refills_left: 2 },
  ],
}

const lines = (comparison: 'single_turn' | 'run', want: Record<string, unknown> = expected) =>
  describeStateDifferences(stateDifferences(want, initial, final, comparison))

describe('state differences by path', () => {
  test('single-turn: the path that fails the subset, expected vs final', () => {
    expect(verifyFinalState(expected, initial, final)).toBe(false)
    expect(lines('single_turn')).toEqual(['prescriptions[1].refills_left: expected 2, got 3'])
  })

  test('RUN: an expected list item no final item contains is shown against the closest one', () => {
    expect(verifyRunFinalState(expected, initial, final)).toBe(false)
    expect(lines('run')).toEqual(['prescriptions[1].refills_left: expected 2, got 3'])
  })

  test('missing keys and list items say so', () => {
    expect(lines('single_turn', { status: 'open', prescriptions: [{}, {}, { id: 'rx3' }] })).toEqual([
      'status: expected "open", missing',
      'prescriptions[2]: expected {"id":"rx3"}, missing',
    ])
  })

  test('{"unchanged": true}: every change from the initial state', () => {
    expect(lines('run', { unchanged: true })).toEqual(['note: expected absent, got "called"'])
  })

  test('a passing state has no differences, by either rule', () => {
    const passing = { prescriptions: [{ id: 'rx2', refills_left: 3 }] }
    expect(verifyRunFinalState(passing, initial, final)).toBe(true)
    expect(stateDifferences(passing, initial, final, 'run')).toEqual([])
    expect(stateDifferences({ prescriptions: [{ id: 'RX1' }] }, initial, final, 'single_turn')).toEqual([])
  })

  test('a state that differs everywhere is listed up to a bound, then counted', () => {
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`k${index}`, index]))
    const shown = describeStateDifferences(stateDifferences(many, {}, {}, 'single_turn'))
    expect(shown).toHaveLength(21)
    expect(shown.at(-1)).toBe('... and 5 more')
  })
})
