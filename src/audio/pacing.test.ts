import { describe, expect, it } from 'vitest'
import { FramePacer, frameLateness, type PacingClock, paceFrames } from './pacing.ts'

/**
 * A clock that only moves when someone sleeps (or a stall is injected). `oversleepMs` models timers that fire
 * late; `stallBeforeSleep` injects an event-loop stall before the given sleep call.
 */
class ManualClock implements PacingClock {
  nowMs: number
  readonly sleeps: number[] = []
  oversleepMs = 0
  readonly stallBeforeSleep = new Map<number, number>()

  constructor(startMs = 1000) {
    this.nowMs = startMs
  }

  now(): number {
    return this.nowMs
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted()
    this.nowMs += this.stallBeforeSleep.get(this.sleeps.length) ?? 0
    this.sleeps.push(ms)
    this.nowMs += ms + this.oversleepMs
  }
}

const frames = (count: number): number[] => Array.from({ length: count }, (_, index) => index)

describe('absolute-deadline pacing', () => {
  it('schedules frame k at t0 + k*20 ms', async () => {
    const clock = new ManualClock(1000)
    const report = await paceFrames(frames(5), () => true, { clock })
    expect(report.ended).toBe('completed')
    expect(report.frames.map((frame) => frame.scheduledMs)).toEqual([1000, 1020, 1040, 1060, 1080])
    expect(report.frames.map((frame) => frame.index)).toEqual([0, 1, 2, 3, 4])
  })

  it('does not drift when every timer fires late', async () => {
    // Each sleep overshoots by 0.6 ms. Relative sleeps would add up to 0.6 ms per frame; absolute deadlines
    // shorten the next sleep instead, so the last frame is still within one overshoot of its deadline.
    const clock = new ManualClock(0)
    clock.oversleepMs = 0.6
    const report = await paceFrames(frames(250), () => true, { clock })
    const last = report.frames.at(-1)
    expect(last?.scheduledMs).toBe(249 * 20)
    expect(last?.lateMs).toBeLessThan(1.6)
    expect(report.stalls).toEqual([])
  })

  it('rounds waits up to whole milliseconds so timers do not fire early', async () => {
    const clock = new ManualClock(0.4)
    await paceFrames(frames(2), () => true, { clock, startAtMs: 0 })
    // frame 1 is due at 20 ms and now is 0.4 ms: the wait is ceil(19.6) = 20, never 19.
    expect(clock.sleeps).toEqual([20])
  })

  it('re-anchors after a stall instead of bursting, and records the stall', async () => {
    const clock = new ManualClock(0)
    clock.stallBeforeSleep.set(2, 120) // before sleeping for frame 3
    const report = await paceFrames(frames(8), () => true, { clock })
    expect(report.stalls).toHaveLength(1)
    const stall = report.stalls[0]
    expect(stall?.frameIndex).toBe(3)
    expect(stall?.lateMs).toBeGreaterThan(40)
    // After the stall frames are 20 ms apart again: no two frames share a slot.
    const gaps = report.frames
      .slice(1)
      .map((frame, i) => frame.scheduledMs - (report.frames[i]?.scheduledMs ?? 0))
    expect(Math.min(...gaps)).toBe(20)
    expect(report.frames[3]?.scheduledMs).toBe(stall?.resumedAtMs)
    expect(report.frames[4]?.scheduledMs).toBe((stall?.resumedAtMs ?? 0) + 20)
  })

  it('catches up (without re-anchoring) when only slightly late', async () => {
    const clock = new ManualClock(0)
    clock.stallBeforeSleep.set(0, 30) // 30 ms late for frame 1: within the two-frame tolerance
    const report = await paceFrames(frames(4), () => true, { clock })
    expect(report.stalls).toEqual([])
    expect(report.frames.map((frame) => frame.scheduledMs)).toEqual([0, 20, 40, 60])
  })

  it('virtual clock: no waiting, virtual times, sent = scheduled', async () => {
    const clock = new ManualClock(5000)
    const report = await paceFrames(frames(4), () => true, { clock, realTime: false })
    expect(clock.sleeps).toEqual([])
    expect(report.realTime).toBe(false)
    expect(report.frames.map((frame) => [frame.scheduledMs, frame.sentMs])).toEqual([
      [0, 0],
      [20, 20],
      [40, 40],
      [60, 60],
    ])
  })

  it('stops when the consumer declines a frame and does not record it as sent', async () => {
    const report = await paceFrames(frames(5), (frame) => frame < 2, { realTime: false })
    expect(report.ended).toBe('consumer_stopped')
    expect(report.frames.map((frame) => frame.index)).toEqual([0, 1])
  })

  it('an abort ends pacing quietly with what was sent so far', async () => {
    const controller = new AbortController()
    const clock = new ManualClock(0)
    const report = await paceFrames(
      frames(10),
      (frame) => {
        if (frame === 2) controller.abort()
      },
      { clock, signal: controller.signal },
    )
    expect(report.ended).toBe('aborted')
    expect(report.frames.map((frame) => frame.index)).toEqual([0, 1, 2])
  })

  it('passes consumer errors through', async () => {
    await expect(
      paceFrames(
        frames(3),
        () => {
          throw new Error('socket gone')
        },
        { realTime: false },
      ),
    ).rejects.toThrow('socket gone')
  })

  it('FramePacer can be driven one slot at a time', async () => {
    const clock = new ManualClock(100)
    const pacer = new FramePacer({ clock, frameMs: 10 })
    const first = pacer.markSent(await pacer.nextSlot())
    const second = pacer.markSent(await pacer.nextSlot())
    expect([first.scheduledMs, second.scheduledMs]).toEqual([100, 110])
    expect(pacer.frames).toHaveLength(2)
    expect(() => new FramePacer({ frameMs: 0 })).toThrow(/frameMs must be positive/)
  })

  it('recordLateness keeps what frameLateness counts for marked frames, stalls included, without the frames', async () => {
    const run = async (
      record: (pacer: FramePacer, slot: Awaited<ReturnType<FramePacer['nextSlot']>>) => void,
    ) => {
      const clock = new ManualClock(100)
      clock.oversleepMs = 0.25
      clock.stallBeforeSleep.set(2, 95) // the third frame finds its slot long gone: a stall
      const pacer = new FramePacer({ clock })
      for (let frame = 0; frame < 6; frame++) record(pacer, await pacer.nextSlot())
      return pacer
    }
    const marked = await run((pacer, slot) => pacer.markSent(slot))
    const recorded = await run((pacer, slot) => pacer.recordLateness(slot))
    expect(marked.stalls).toHaveLength(1)
    expect(recorded.frames).toEqual([])
    expect(recorded.lateness()).toEqual(frameLateness(marked))
    expect(marked.lateness()).toEqual(frameLateness(marked))
    expect(Math.max(...recorded.lateness())).toBeGreaterThan(90)
  })

  it('waitForNextSlot, takeSlot and recordSlotLateness give what nextSlot and recordLateness give, stalls included', async () => {
    const run = async (drive: (pacer: FramePacer) => Promise<void>, realTime = true) => {
      const clock = new ManualClock(100)
      clock.oversleepMs = 0.25
      clock.stallBeforeSleep.set(2, 95)
      clock.stallBeforeSleep.set(4, 30) // late, but within two frames: no stall
      const pacer = new FramePacer({ clock, realTime })
      for (let frame = 0; frame < 8; frame++) await drive(pacer)
      return { pacer, sleeps: clock.sleeps, nowMs: clock.nowMs }
    }
    const bySlot = (pacer: FramePacer) => pacer.nextSlot().then((slot) => pacer.recordLateness(slot))
    const inTwo = async (pacer: FramePacer) => {
      const waiting = pacer.waitForNextSlot()
      if (waiting !== null) await waiting
      pacer.takeSlot()
      pacer.recordSlotLateness()
    }
    for (const realTime of [true, false]) {
      const expected = await run(bySlot, realTime)
      const actual = await run(inTwo, realTime)
      expect(actual.pacer.lateness()).toEqual(expected.pacer.lateness())
      expect(actual.pacer.stalls).toEqual(expected.pacer.stalls)
      expect(actual.sleeps).toEqual(expected.sleeps)
      expect(actual.nowMs).toBe(expected.nowMs)
    }
    const realTime = await run(inTwo)
    expect(realTime.pacer.stalls).toHaveLength(1)
    // After the stall the schedule continues from the new anchor: the next slot needs a wait again.
    expect(realTime.sleeps.length).toBeGreaterThan(4)
  })

  it('waitForNextSlot throws once the signal aborted, and its wait rejects when the abort comes during it', async () => {
    const controller = new AbortController()
    const pacer = new FramePacer({ signal: controller.signal, startAtMs: performance.now() + 60_000 })
    const waiting = pacer.waitForNextSlot()
    expect(waiting).not.toBeNull()
    controller.abort(new Error('call over'))
    await expect(waiting).rejects.toThrow('call over')
    expect(() => pacer.waitForNextSlot()).toThrow('call over')
  })
})
