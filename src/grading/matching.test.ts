import { describe, expect, test } from 'vitest'
import {
  expectedArgumentsMatch,
  expectedValueMatches,
  maximumExpectedAssignment,
  normalizeArgumentText,
  uniqueExpectedMatches,
} from './matching.ts'

describe('normalizeArgumentText', () => {
  test('case-folds, trims, turns punctuation into spaces and collapses whitespace', () => {
    expect(normalizeArgumentText('  Window-seat,  PLEASE! ')).toBe('window seat please')
  })
  test('keeps Unicode letters, digits and underscores as word characters', () => {
    expect(normalizeArgumentText('Zoë_2 über')).toBe('zoë_2 über')
  })
  test('reads non-strings with Python spellings', () => {
    expect(normalizeArgumentText(2)).toBe('2')
    expect(normalizeArgumentText(true)).toBe('true')
    expect(normalizeArgumentText(null)).toBe('none')
  })
})

describe('expectedArgumentsMatch', () => {
  test('every expected key must exist in actual; extra actual keys are ignored', () => {
    expect(expectedArgumentsMatch({ guest_name: 'maya' }, { guest_name: 'Maya', party_size: 2 })).toBe(true)
    expect(expectedArgumentsMatch({ guest_name: 'maya', party_size: 2 }, { guest_name: 'Maya' })).toBe(false)
  })
  test('an empty expectation matches any object but not a non-object', () => {
    expect(expectedArgumentsMatch({}, { anything: 1 })).toBe(true)
    expect(expectedArgumentsMatch({}, 'text')).toBe(false)
  })
  test('text compares normalized: "maya" matches "Maya", "Window-seat" matches "window seat", not "Amaya"', () => {
    expect(expectedValueMatches('maya', 'Maya')).toBe(true)
    expect(expectedValueMatches('Window-seat', 'window seat')).toBe(true)
    expect(expectedValueMatches('Maya', 'Amaya')).toBe(false)
  })
  test('nested objects are recursive subsets', () => {
    expect(expectedArgumentsMatch({ guest: { name: 'maya' } }, { guest: { name: 'Maya', phone: 'x' } })).toBe(
      true,
    )
    expect(expectedArgumentsMatch({ guest: { name: 'maya' } }, { guest: { phone: 'x' } })).toBe(false)
  })
  test('lists match as a positional prefix', () => {
    expect(expectedValueMatches(['a', 'b'], ['A', 'B', 'c'])).toBe(true)
    expect(expectedValueMatches(['b', 'a'], ['a', 'b'])).toBe(false)
    expect(expectedValueMatches(['a', 'b', 'c'], ['a', 'b'])).toBe(false)
  })
  test('booleans compare by identity: true never matches 1 or "true"', () => {
    expect(expectedValueMatches(true, true)).toBe(true)
    expect(expectedValueMatches(true, 1)).toBe(false)
    expect(expectedValueMatches(1, true)).toBe(false)
    expect(expectedValueMatches(false, 'false')).toBe(false)
  })
  test('numbers compare numerically and "2" matches 2 as text', () => {
    expect(expectedValueMatches(2, 2.0)).toBe(true)
    expect(expectedValueMatches(2, 3)).toBe(false)
    expect(expectedValueMatches('2', 2)).toBe(true)
    expect(expectedValueMatches(2, '2')).toBe(true)
  })
  test('numbers never compare as text: a sign or decimal point is not punctuation to drop', () => {
    // As normalized text, -1 and 1 would both read "1"; numeric equality keeps them apart.
    expect(expectedValueMatches(-1, 1)).toBe(false)
    expect(expectedValueMatches(1, -1)).toBe(false)
    expect(expectedValueMatches(1.5, 1.5)).toBe(true)
  })
  test('an expected key must be present even when its expected value is null', () => {
    // A missing key and None would both read "none" as text; presence is checked first.
    expect(expectedArgumentsMatch({ notes: null }, {})).toBe(false)
    expect(expectedArgumentsMatch({ notes: null }, { notes: null })).toBe(true)
  })
})

describe('uniqueExpectedMatches', () => {
  const equal = (a: string, b: string) => a === b
  test('one observation satisfies at most one expectation', () => {
    expect(uniqueExpectedMatches(['x', 'x'], ['x', 'y'], equal)).toBe(1)
    expect(uniqueExpectedMatches(['x', 'x'], ['x', 'x'], equal)).toBe(2)
  })
  test('finds the maximum assignment through augmenting paths, not a greedy one', () => {
    // Greedy would give expectation 0 observation 0 and leave expectation 1 unmatched.
    const matches = (expectation: string, observation: string) =>
      expectation === 'any' ? true : expectation === observation
    expect(uniqueExpectedMatches(['any', 'a'], ['a', 'b'], matches)).toBe(2)
    expect(maximumExpectedAssignment(['any', 'a'], ['a', 'b'], matches)).toEqual([1, 0])
  })
  test('nothing to match gives zero', () => {
    expect(uniqueExpectedMatches([], ['a'], equal)).toBe(0)
    expect(uniqueExpectedMatches(['a'], [], equal)).toBe(0)
  })
})
