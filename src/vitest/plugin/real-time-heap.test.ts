import { describe, expect, it } from 'vitest'
import { REAL_TIME_HEAP_FLAGS, sizeRealTimeHeap } from './real-time-heap.ts'

const configWith = (pool: string, execArgv: string[] = []) => ({ pool, execArgv })

describe('the heap flags of a real-time project’s workers', () => {
  it('is added to forked workers on the real-time clock, after what the project already passes', () => {
    for (const pool of ['forks', 'vmForks']) {
      const config = configWith(pool, ['--enable-source-maps'])
      sizeRealTimeHeap(config, 'real_time')
      expect(config.execArgv).toEqual(['--enable-source-maps', ...REAL_TIME_HEAP_FLAGS])
    }
  })

  it('leaves the array the project shares untouched (a new one is set)', () => {
    const shared = ['--enable-source-maps']
    const config = configWith('forks', shared)
    sizeRealTimeHeap(config, 'real_time')
    expect(shared).toEqual(['--enable-source-maps'])
  })

  it('is not added on the virtual clock, nor to worker threads (Node refuses a V8 flag in a worker)', () => {
    const virtual = configWith('forks')
    sizeRealTimeHeap(virtual, 'virtual')
    expect(virtual.execArgv).toEqual([])
    for (const pool of ['threads', 'vmThreads', 'browser', 'a-custom-pool']) {
      const config = configWith(pool)
      sizeRealTimeHeap(config, 'real_time')
      expect(config.execArgv, pool).toEqual([])
    }
  })

  it('never overrides a young-generation size or a growing factor the project gives, and adds the other', () => {
    for (const own of ['--max-semi-space-size=64', '--max-semi-space-size', '--semi-space-growth-factor=4']) {
      const config = configWith('forks', [own])
      sizeRealTimeHeap(config, 'real_time')
      expect(config.execArgv).toEqual([own, '--heap-growing-percent=200'])
    }
    const growing = configWith('forks', ['--heap-growing-percent=50'])
    sizeRealTimeHeap(growing, 'real_time')
    expect(growing.execArgv).toEqual(['--heap-growing-percent=50', '--max-semi-space-size=4'])
    const both = configWith('forks', ['--heap-growing-percent', '--min-semi-space-size=1'])
    sizeRealTimeHeap(both, 'real_time')
    expect(both.execArgv).toEqual(['--heap-growing-percent', '--min-semi-space-size=1'])
  })

  it('sized again (a watch rerun), adds its flags once and takes back only its own when real time is off', () => {
    const config = configWith('forks', ['--enable-source-maps'])
    sizeRealTimeHeap(config, 'real_time')
    sizeRealTimeHeap(config, 'real_time')
    expect(config.execArgv).toEqual(['--enable-source-maps', ...REAL_TIME_HEAP_FLAGS])
    sizeRealTimeHeap(config, 'virtual')
    expect(config.execArgv).toEqual(['--enable-source-maps'])
    const own = configWith('forks', ['--max-semi-space-size=4'])
    sizeRealTimeHeap(own, 'real_time')
    sizeRealTimeHeap(own, 'virtual')
    expect(own.execArgv).toEqual(['--max-semi-space-size=4'])
  })
})
