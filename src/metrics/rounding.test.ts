import { describe, expect, test } from 'vitest'
import { roundHalfEvenToInteger, roundToFourPlaces } from './rounding.ts'

describe('rounding like Python round()', () => {
  test('integers: halves go to the even neighbour', () => {
    expect(roundHalfEvenToInteger(0.5)).toBe(0)
    expect(roundHalfEvenToInteger(1.5)).toBe(2)
    expect(roundHalfEvenToInteger(2.5)).toBe(2)
    expect(roundHalfEvenToInteger(2.51)).toBe(3)
  })
  test('four places: exact binary ties go to even, stored values above a tie round up', () => {
    expect(roundToFourPlaces(2 / 3)).toBe(0.6667)
    expect(roundToFourPlaces(0.03125)).toBe(0.0312)
    expect(roundToFourPlaces(0.09375)).toBe(0.0938)
    expect(roundToFourPlaces(0.12345)).toBe(0.1235)
  })
})
