import { describe, expect, it } from 'vitest'
import { limitYoungGeneration, REAL_TIME_SEMI_SPACE_FLAG } from './young-generation.ts'

const configWith = (pool: string, execArgv: string[] = []) => ({ pool, execArgv })

describe('the young-generation cap of a real-time project’s workers', () => {
  it('is added to forked workers on the real-time clock, after what the project already passes', () => {
    for (const pool of ['forks', 'vmForks']) {
      const config = configWith(pool, ['--enable-source-maps'])
      limitYoungGeneration(config, 'real_time')
      expect(config.execArgv).toEqual(['--enable-source-maps', REAL_TIME_SEMI_SPACE_FLAG])
    }
  })

  it('leaves the array the project shares untouched (a new one is set)', () => {
    const shared = ['--enable-source-maps']
    const config = configWith('forks', shared)
    limitYoungGeneration(config, 'real_time')
    expect(shared).toEqual(['--enable-source-maps'])
  })

  it('is not added on the virtual clock, nor to worker threads (Node refuses a V8 flag in a worker)', () => {
    const virtual = configWith('forks')
    limitYoungGeneration(virtual, 'virtual')
    expect(virtual.execArgv).toEqual([])
    for (const pool of ['threads', 'vmThreads', 'browser', 'a-custom-pool']) {
      const config = configWith(pool)
      limitYoungGeneration(config, 'real_time')
      expect(config.execArgv, pool).toEqual([])
    }
  })

  it('never overrides a young-generation size the project gives', () => {
    for (const own of ['--max-semi-space-size=64', '--max-semi-space-size', '--semi-space-growth-factor=4']) {
      const config = configWith('forks', [own])
      limitYoungGeneration(config, 'real_time')
      expect(config.execArgv).toEqual([own])
    }
  })
})
