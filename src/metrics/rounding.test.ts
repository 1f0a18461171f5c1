import { describe, expect, test } from 'vitest'
import { roundHalfEvenToInteger, roundToFourPlaces, roundToPlaces } from './rounding.ts'

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
  test('three places (the reference latency): thirds of milliseconds and exact ties', () => {
    expect(roundToPlaces(1400 / 3, 3)).toBe(466.667)
    expect(roundToPlaces(4540 / 3, 3)).toBe(1513.333)
    expect(roundToPlaces(0.0625, 3)).toBe(0.062)
    expect(roundToPlaces(0.1875, 3)).toBe(0.188)
    expect(roundToPlaces(500, 3)).toBe(500)
  })
})
