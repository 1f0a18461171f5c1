import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { FaultTimers } from './timers.ts'

describe('FaultTimers', () => {
  test('virtual: a wait resolves when the media clock passes its due time, not before', async () => {
    const timers = new FaultTimers()
    timers.useVirtualClock(1_000)
    let done = false
    const waiting = timers.wait(2_000).then(() => {
      done = true
    })
    timers.advanceTo(2_900)
    await Promise.resolve()
    expect(done).toBe(false)
    expect(timers.pending).toBe(1)
    timers.advanceTo(3_000)
    await waiting
    expect(done).toBe(true)
    expect(timers.pending).toBe(0)
  })

  test('release ends every wait at once, virtual or real, and later waits do not wait', async () => {
    const virtual = new FaultTimers()
    virtual.useVirtualClock()
    const held = virtual.wait(60_000)
    virtual.release()
    await held
    const real = new FaultTimers()
    const sleeping = real.wait(60_000)
    real.release()
    await sleeping
    await real.wait(60_000)
    expect(real.virtual).toBe(false)
  })

  test('advanceAndRun: what a released wait held has run (promise jobs, then a tick) when it resolves', async () => {
    const timers = new FaultTimers()
    timers.useVirtualClock()
    const published: string[] = []
    // A held tool output: its result, then the controller's publication on a later tick.
    void timers
      .wait(2_000)
      .then(() => nextTurn())
      .then(() => published.push('output'))
    expect(timers.advanceAndRun(1_980)).toBeUndefined()
    const running = timers.advanceAndRun(2_000)
    expect(published).toEqual([])
    await running
    expect(published).toEqual(['output'])
    expect(timers.advanceTo(5_000)).toBe(0)
  })
})
