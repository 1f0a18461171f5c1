import { spawnSync } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { createLoopWaker, loopNowMs } from './loop-waker.ts'
import { FrameSchedule } from './pacing-schedule.ts'

/** Resolves once `done()` holds; the bound only turns a hang into a failure. */
async function until(done: () => boolean, boundMs = 5_000): Promise<void> {
  const giveUpAt = performance.now() + boundMs
  while (!done()) {
    if (performance.now() > giveUpAt) throw new Error('gave up waiting')
    await sleep(1)
  }
}

describe('the loop waker', () => {
  it('wakes the loop once the moment asked for has come, and once only', async () => {
    const waker = createLoopWaker()
    try {
      const askedAt = loopNowMs()
      waker.wakeAt(askedAt + 5)
      await until(() => waker.wakes === 1)
      expect(loopNowMs()).toBeGreaterThanOrEqual(askedAt + 5)
      await sleep(30)
      expect(waker.wakes).toBe(1)
    } finally {
      await waker.stop()
    }
  })

  /** A waker whose thread is up and has woken the loop once (a thread starts in tens of milliseconds). */
  async function startedWaker() {
    const waker = createLoopWaker()
    waker.wakeAt(loopNowMs())
    await until(() => waker.wakes === 1)
    return waker
  }

  it('an earlier moment asked for while it sleeps until a later one wakes it at the earlier one', async () => {
    const waker = await startedWaker()
    try {
      waker.wakeAt(loopNowMs() + 60_000)
      await sleep(20)
      waker.wakeAt(loopNowMs() + 5)
      await until(() => waker.wakes === 2)
    } finally {
      await waker.stop()
    }
  })

  it('a moment forgotten (cancel) wakes nothing', async () => {
    const waker = await startedWaker()
    try {
      waker.wakeAt(loopNowMs() + 20)
      waker.cancel()
      await sleep(80)
      expect(waker.wakes).toBe(1)
      waker.wakeAt(loopNowMs() + 1)
      await until(() => waker.wakes === 2)
    } finally {
      await waker.stop()
    }
  })

  it('never holds the process open: a process that asked for a wake a minute away exits when its work is done', () => {
    const script = [
      `import { createLoopWaker, loopNowMs } from ${JSON.stringify(new URL('./loop-waker.ts', import.meta.url).href)}`,
      'const waker = createLoopWaker()',
      'waker.wakeAt(loopNowMs())',
      'while (waker.wakes === 0) await new Promise((resolve) => setTimeout(resolve, 1))',
      'waker.wakeAt(loopNowMs() + 60_000)',
      "console.log('asked')",
    ].join('\n')
    const ran = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(ran.error).toBeUndefined()
    expect(ran.stdout.trim()).toBe('asked')
    expect(ran.status).toBe(0)
  })

  it('a thread that cannot start leaves the timers alone to wake the loop', async () => {
    const waker = createLoopWaker(new URL('./no-such-thread.js', import.meta.url))
    expect(waker.wakeAt(loopNowMs() + 1)).toBe(true)
    // It fails as it loads; from then on it says it will not wake the loop.
    await until(() => !waker.wakeAt(loopNowMs() + 1))
    const schedule = new FrameSchedule({ waker })
    await schedule.wait(performance.now() + 5)
    expect(waker.wakes).toBe(0)
    expect(schedule.pending).toBe(0)
    await waker.stop()
  })
})

describe('the frame schedule and the waker', () => {
  /** A waker that records what it was asked; the schedule's timer still fires by itself. */
  function recordingWaker() {
    const asked: (number | 'cancel')[] = []
    return {
      asked,
      waker: {
        wakeAt: (loopMs: number) => asked.push(loopMs) > 0,
        cancel: () => asked.push('cancel'),
        stop: async () => {},
        wakes: 0,
      },
    }
  }

  it("aims at the first whole millisecond of libuv's clock at or after the deadline, and asks the waker for it", async () => {
    // The clock reads 1000.9 and the frame is due at 1001.5. A delay rounded up from the distance (0.6 ms) is one
    // millisecond past the 1000 libuv read: the timer would fire at 1001, before the deadline, and go round again.
    let clockMs = 1000.9
    const { asked, waker } = recordingWaker()
    const schedule = new FrameSchedule({ now: () => clockMs, waker })
    const released = schedule.wait(1001.5)
    expect(asked.at(-1)).toBe(1002)
    clockMs = 1002
    await released
    // The schedule looks for more due frames once the released ones' work is done, and finds none.
    await new Promise((resolve) => setImmediate(resolve))
    expect(asked.at(-1)).toBe('cancel')
  })

  it('forgets its wake once nothing waits: the last waiter aborted', async () => {
    const { asked, waker } = recordingWaker()
    const schedule = new FrameSchedule({ now: () => 0, waker })
    const controller = new AbortController()
    const waiting = schedule.wait(60_000, controller.signal)
    expect(asked.at(-1)).toBe(60_000)
    controller.abort(new Error('call over'))
    await expect(waiting).rejects.toThrow('call over')
    expect(asked.at(-1)).toBe('cancel')
  })
})
