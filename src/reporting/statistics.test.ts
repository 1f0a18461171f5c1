import { describe, expect, test } from 'vitest'
import {
  distributionOf,
  passHatK,
  percentile,
  spreadOf,
  standardDeviationOf,
  wilsonInterval,
} from './statistics.ts'

describe('wilsonInterval', () => {
  test('matches hand-computed 95% intervals', () => {
    // 8 of 10: centre (0.8 + 3.8415/20) / 1.38415 = 0.7167, half-width (1.96/1.38415) * sqrt(0.016 + 3.8415/400)
    // = 0.2266 -> [0.4902, 0.9433]
    const eight = wilsonInterval(8, 10)
    expect(eight.estimate).toBe(0.8)
    expect(eight.lower).toBeCloseTo(0.4902, 4)
    expect(eight.upper).toBeCloseTo(0.9433, 4)
    // 10 of 10: lower = n / (n + z^2) = 10 / 13.8415 = 0.7225, upper exactly 1
    const all = wilsonInterval(10, 10)
    expect(all.lower).toBeCloseTo(0.7225, 4)
    expect(all.upper).toBeCloseTo(1, 12)
    // 0 of 5: lower 0, upper z^2 / (n + z^2) = 3.8415 / 8.8415 = 0.4345
    const none = wilsonInterval(0, 5)
    expect(none.lower).toBe(0)
    expect(none.upper).toBeCloseTo(0.4345, 4)
  })
  test('no rows is unknown, not 0', () => {
    expect(wilsonInterval(0, 0)).toEqual({ successes: 0, n: 0, estimate: null, lower: null, upper: null })
  })
  test('refuses impossible counts', () => {
    expect(() => wilsonInterval(3, 2)).toThrow('0 <= successes <= n')
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError)
  })
})

describe('passHatK (unbiased C(c,k)/C(n,k))', () => {
  test('matches hand-computed values', () => {
    // C(3,2)/C(5,2) = 3/10
    expect(passHatK(3, 5, 2)).toBeCloseTo(0.3, 12)
    // C(4,3)/C(5,3) = 4/10
    expect(passHatK(4, 5, 3)).toBeCloseTo(0.4, 12)
    // C(7,4)/C(10,4) = 35/210 = 1/6
    expect(passHatK(7, 10, 4)).toBeCloseTo(1 / 6, 12)
    // k = 1 is the plain pass rate
    expect(passHatK(7, 10, 1)).toBeCloseTo(0.7, 12)
    // every trial passed: 1; fewer passes than k: 0
    expect(passHatK(5, 5, 5)).toBe(1)
    expect(passHatK(2, 5, 3)).toBe(0)
  })
  test('more trials asked about than were run is unknown', () => {
    expect(passHatK(3, 3, 4)).toBeNull()
  })
  test('large n does not overflow', () => {
    // C(990,2)/C(1000,2) = 990*989 / (1000*999)
    expect(passHatK(990, 1000, 2)).toBeCloseTo((990 * 989) / (1000 * 999), 12)
  })
  test('refuses a k that is not a positive integer', () => {
    expect(() => passHatK(1, 2, 0)).toThrow('k must be a positive integer')
  })
})

describe('percentiles', () => {
  test('nearest rank: always an observed value', () => {
    const values = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]
    expect(percentile(values, 50)).toBe(500)
    expect(percentile(values, 90)).toBe(900)
    expect(percentile(values, 95)).toBe(1000)
    expect(percentile([42], 95)).toBe(42)
    expect(percentile([], 50)).toBeNull()
  })
  test('a distribution of nothing has n 0 and null everywhere', () => {
    expect(distributionOf([])).toEqual({
      n: 0,
      mean: null,
      p50: null,
      p90: null,
      p95: null,
      min: null,
      max: null,
    })
    expect(distributionOf([3, 1, 2])).toMatchObject({ n: 3, mean: 2, p50: 2, min: 1, max: 3 })
  })
})

describe('spread over repeated trials', () => {
  test('sample standard deviation, hand-computed', () => {
    // mean 5; squared deviations 9 + 1 + 1 + 9 = 20; 20 / (4 - 1) = 6.667; sqrt = 2.5820
    expect(standardDeviationOf([2, 4, 6, 8])).toBeCloseTo(2.582, 3)
    expect(standardDeviationOf([7])).toBeNull()
    expect(standardDeviationOf([])).toBeNull()
  })
  test('spreadOf gives n, mean, stdev, min, P50, P90 and max; nothing measured is null, not 0', () => {
    expect(spreadOf([300, 100, 200])).toEqual({
      n: 3,
      mean: 200,
      stdev: 100,
      min: 100,
      p50: 200,
      p90: 300,
      max: 300,
    })
    expect(spreadOf([])).toEqual({
      n: 0,
      mean: null,
      stdev: null,
      min: null,
      p50: null,
      p90: null,
      max: null,
    })
  })
})
