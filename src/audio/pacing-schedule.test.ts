import { describe, expect, it } from 'vitest'
import { frameLateness } from './pacing.ts'
import { FrameSchedule } from './pacing-schedule.ts'

describe('the shared frame schedule', () => {
  it('releases waiters in deadline order, never before their deadline, whatever order they asked in', async () => {
    const schedule = new FrameSchedule()
    const start = performance.now()
    const released: { name: string; atMs: number; dueMs: number }[] = []
    const wait = (name: string, offsetMs: number) => {
      const dueMs = start + offsetMs
      return schedule.wait(dueMs).then(() => released.push({ name, atMs: performance.now(), dueMs }))
    }
    await Promise.all([wait('c', 30), wait('a', 5), wait('b', 15), wait('a2', 5)])
    expect(released.map((entry) => entry.name)).toEqual(['a', 'a2', 'b', 'c'])
    for (const entry of released) expect(entry.atMs).toBeGreaterThanOrEqual(entry.dueMs)
    expect(schedule.pending).toBe(0)
  })

  it('a deadline passed while the released frames were being sent is released in that turn, not on a later timer', async () => {
    // No turn limit here: the first frame's work (4 ms) is the whole turn.
    const schedule = new FrameSchedule({ maxTurnMs: 1_000 })
    const start = performance.now()
    const order: string[] = []
    const first = schedule.wait(start + 5).then(async () => {
      order.push('first')
      // The frame's work goes on over a few microtasks (a step ending) and outlasts the second deadline;
      // anything queued meanwhile as a macrotask runs in a later turn.
      await Promise.resolve()
      await Promise.resolve()
      while (performance.now() < start + 9) {
        // busy, as a send that takes a while
      }
      setImmediate(() => order.push('a later turn'))
    })
    const second = schedule.wait(start + 7).then(() => order.push('second'))
    await Promise.all([first, second])
    await new Promise((resolve) => setImmediate(resolve))
    expect(order).toEqual(['first', 'second', 'a later turn'])
  })

  it('a turn whose frames outlast their spacing still ends, so what the sessions sent is heard', async () => {
    const schedule = new FrameSchedule()
    const start = performance.now()
    let frames = 0
    let heardAfter: number | undefined
    // Each frame's work takes 2 ms and the next one is due 1 ms after the last: every deadline has passed already.
    for (let dueMs = start + 2; frames < 20; dueMs += 1) {
      await schedule.wait(dueMs)
      frames += 1
      if (frames === 1) setImmediate(() => (heardAfter ??= frames))
      const began = performance.now()
      while (performance.now() < began + 2) {
        // busy, as frames that take long to send
      }
    }
    await new Promise((resolve) => setImmediate(resolve))
    // A turn ends once it has gone on for 4 ms: after the second or third 2 ms frame, never the twentieth.
    expect(heardAfter).toBeLessThanOrEqual(3)
  })

  it('an aborted waiter rejects with the reason and leaves the others on schedule', async () => {
    const schedule = new FrameSchedule()
    const controller = new AbortController()
    const start = performance.now()
    const aborted = schedule.wait(start + 50, controller.signal)
    const kept = schedule.wait(start + 10)
    controller.abort(new Error('stopped'))
    await expect(aborted).rejects.toThrow('stopped')
    expect(schedule.pending).toBe(1)
    await kept
    expect(schedule.pending).toBe(0)
    await expect(schedule.wait(start, controller.signal)).rejects.toThrow('stopped')
  })

  it('one signal waited on frame after frame: the abort rejects only the wait still open, and nothing piles up', async () => {
    const schedule = new FrameSchedule()
    const controller = new AbortController()
    const released: number[] = []
    for (let frame = 0; frame < 20; frame++) {
      await schedule.wait(performance.now() + 1, controller.signal)
      released.push(frame)
    }
    const open = schedule.wait(performance.now() + 60_000, controller.signal)
    const other = schedule.wait(performance.now() + 5)
    controller.abort(new Error('call over'))
    await expect(open).rejects.toThrow('call over')
    await other
    expect(released).toHaveLength(20)
    expect(schedule.pending).toBe(0)
  })
})

describe('frame lateness', () => {
  it('counts a frame that found its slot missed against that slot, not the re-anchored one', () => {
    const lateness = frameLateness({
      frames: [
        { index: 0, scheduledMs: 0, sentMs: 0.5, lateMs: 0.5 },
        // Frame 1 was due at 20 and went out at 95: the schedule re-anchored at 95.
        { index: 1, scheduledMs: 95, sentMs: 95.2, lateMs: 0.2 },
        { index: 2, scheduledMs: 115, sentMs: 116, lateMs: 1 },
      ],
      stalls: [{ frameIndex: 1, missedScheduleMs: 20, resumedAtMs: 95, lateMs: 75 }],
    })
    expect(lateness.map((ms) => Math.round(ms * 10) / 10)).toEqual([0.5, 75.2, 1])
  })
})
