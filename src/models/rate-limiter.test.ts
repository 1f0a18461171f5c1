import { describe, expect, it } from 'vitest'
import { createRateLimiter } from './rate-limiter.ts'

/** A manual clock: sleeping advances it, so spacing and pauses are checked without waiting. */
function manualClock() {
  let time = 0
  const starts: number[] = []
  return {
    now: () => time,
    sleep: async (ms: number) => {
      time += ms
    },
    starts,
    mark: () => starts.push(time),
  }
}

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

describe('createRateLimiter', () => {
  it('keeps at most maxConcurrent tasks in flight and starts the rest in arrival order', async () => {
    const limiter = createRateLimiter({ maxConcurrent: 2 })
    const gates = [deferred(), deferred(), deferred()]
    const started: number[] = []
    const runs = gates.map((gate, index) =>
      limiter.run(async () => {
        started.push(index)
        await gate.promise
        return index
      }),
    )
    await Promise.resolve()
    await Promise.resolve()
    expect(started).toEqual([0, 1])
    expect(limiter.active).toBe(2)
    expect(limiter.waiting).toBe(1)
    gates[1]?.resolve()
    await runs[1]
    await Promise.resolve()
    expect(started).toEqual([0, 1, 2])
    gates[0]?.resolve()
    gates[2]?.resolve()
    expect(await Promise.all(runs)).toEqual([0, 1, 2])
    expect(limiter.active).toBe(0)
  })

  it('frees the slot when a task fails', async () => {
    const limiter = createRateLimiter({ maxConcurrent: 1 })
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await limiter.run(async () => 'next')).toBe('next')
  })

  it('spaces starts by minIntervalMs and holds every start back after a pause', async () => {
    const clock = manualClock()
    const limiter = createRateLimiter({
      maxConcurrent: 4,
      minIntervalMs: 100,
      now: clock.now,
      sleep: clock.sleep,
    })
    for (let index = 0; index < 3; index += 1) await limiter.run(async () => clock.mark())
    expect(clock.starts).toEqual([0, 100, 200])
    limiter.pause(1000)
    await limiter.run(async () => clock.mark())
    expect(clock.starts.at(-1)).toBe(1200)
  })

  it('drops an aborted waiter from the queue without running it', async () => {
    const limiter = createRateLimiter({ maxConcurrent: 1 })
    const gate = deferred()
    const first = limiter.run(() => gate.promise)
    const controller = new AbortController()
    let ran = false
    const second = limiter.run(async () => {
      ran = true
    }, controller.signal)
    controller.abort(new Error('scenario cancelled'))
    await expect(second).rejects.toThrow('scenario cancelled')
    expect(limiter.waiting).toBe(0)
    gate.resolve()
    await first
    expect(ran).toBe(false)
    expect(limiter.active).toBe(0)
  })

  it('refuses a limit that would never let a request through', () => {
    expect(() => createRateLimiter({ maxConcurrent: 0 })).toThrow(
      /maxConcurrent must be an integer of at least 1/,
    )
    expect(() => createRateLimiter({ minIntervalMs: Number.NaN })).toThrow(/minIntervalMs/)
  })
})
