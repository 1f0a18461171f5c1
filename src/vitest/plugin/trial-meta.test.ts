import { describe, expect, test } from 'vitest'
import { itemsOfShard } from './shard.ts'
import { trialsToRegister, trialTestName } from './trial-meta.ts'

describe('trial tests', () => {
  test('one trial registers one test with the plain title; k trials register k named tests', () => {
    expect(trialsToRegister(1)).toEqual([null])
    expect(trialTestName('Booking for four', null)).toBe('Booking for four')
    expect(trialsToRegister(3)).toEqual([
      { trial: 1, of: 3 },
      { trial: 2, of: 3 },
      { trial: 3, of: 3 },
    ])
    expect(trialTestName('Booking for four', { trial: 2, of: 3 })).toBe('Booking for four [trial 2/3]')
  })
  test('a trial count that is not a positive integer is refused, naming the setting', () => {
    expect(() => trialsToRegister(0)).toThrow('execution.trials must be an integer of 1 or more (got 0)')
    expect(() => trialsToRegister(1.5)).toThrow('execution.trials')
  })
  test("sharding splits scenarios before their trials are registered: a scenario's trials share a shard", () => {
    const scenarios = ['a', 'b', 'c', 'd', 'e']
    const tests = (shard: { index: number; count: number }) =>
      itemsOfShard(scenarios, shard).flatMap((id) =>
        trialsToRegister(3).map((trial) => `${id}#${trial?.trial}`),
      )
    const shards = [1, 2].map((index) => tests({ index, count: 2 }))
    expect(shards[0]).toEqual(['a#1', 'a#2', 'a#3', 'b#1', 'b#2', 'b#3', 'c#1', 'c#2', 'c#3'])
    expect(shards[1]).toEqual(['d#1', 'd#2', 'd#3', 'e#1', 'e#2', 'e#3'])
  })
})
