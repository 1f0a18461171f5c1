import { setTimeout as sleepFor } from 'node:timers/promises'
import { sharedFrameSchedule } from './pacing-schedule.ts'
import { FRAME_MS } from './pcm.ts'

/**
 * Absolute-deadline pacing of audio frames (spec audio §8). Frame k is due at anchor + k·frameMs, so sleeping
 * never accumulates drift the way `sleep(20)` in a loop does (about half a second per minute). When the event
 * loop stalls and we wake more than `maxLateFrames` frames late, the schedule is re-anchored at "now" instead of
 * bursting the missed frames, and the stall is recorded: the caller's audio then really is shifted on the session
 * timeline, and the recorded scheduled times say by how much.
 */

export interface PacingClock {
  /** Monotonic milliseconds. */
  now(): number
  /** Resolves after about `ms` milliseconds; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /**
   * Resolves once `now()` reached `dueMs` (absolute); rejects with the signal's reason when aborted. A clock
   * without it is slept with `sleep(ceil(dueMs - now))`.
   */
  sleepUntil?(dueMs: number, signal?: AbortSignal): Promise<void>
}

/**
 * The process's real clock. Every real-time pacer waits on one shared schedule (one timer for all of them, see
 * pacing-schedule.ts) rather than a timer each: 64 sessions are 3,200 frames a second.
 */
export const realTimeClock: PacingClock = {
  now: () => performance.now(),
  sleep: (ms, signal) => sleepFor(ms, undefined, signal === undefined ? undefined : { signal }),
  sleepUntil: (dueMs, signal) => sharedFrameSchedule.wait(dueMs, signal),
}

export interface PacingOptions {
  /** The transport frame (20 ms) by default. */
  frameMs?: number
  /** false = virtual clock: no waiting, frames go out as fast as the consumer takes them, times are virtual. */
  realTime?: boolean
  clock?: PacingClock
  /** Lateness beyond this many frames re-anchors the schedule instead of catching up. */
  maxLateFrames?: number
  /** First frame's scheduled time. Real time: defaults to the clock at the first slot. Virtual: defaults to 0. */
  startAtMs?: number
  signal?: AbortSignal
}

export interface FrameSlot {
  index: number
  scheduledMs: number
}

export interface PacedFrame extends FrameSlot {
  /** When the frame was handed to the consumer (equal to scheduledMs on the virtual clock). */
  sentMs: number
  lateMs: number
}

export interface PacingStall {
  /** The frame whose slot was missed; it became the new anchor. */
  frameIndex: number
  /** Where that frame would have been scheduled without the stall. */
  missedScheduleMs: number
  /** When we actually woke up (the new anchor). */
  resumedAtMs: number
  lateMs: number
}

/** Hands out frame slots on an absolute schedule; records every frame's scheduled and actual send time. */
export class FramePacer {
  readonly frameMs: number
  readonly realTime: boolean
  readonly frames: PacedFrame[] = []
  readonly stalls: PacingStall[] = []
  readonly #clock: PacingClock
  readonly #maxLateMs: number
  readonly #signal: AbortSignal | undefined
  #anchorMs: number | undefined
  #sinceAnchor = 0
  #nextIndex = 0
  /** How late each sent frame went out (markSent and recordLateness), in send order: unboxed doubles. */
  readonly #lateness: number[] = []
  /** The current slot (the last one waitForNextSlot started). */
  #slotIndex = -1
  #slotScheduledMs = 0
  /** The clock's time when waitForNextSlot found the slot due already (no wait): takeSlot reads it. */
  #wokeAtMs: number | undefined

  constructor(options: PacingOptions = {}) {
    this.frameMs = options.frameMs ?? FRAME_MS
    if (!(this.frameMs > 0)) throw new RangeError(`pacing frameMs must be positive, got ${this.frameMs}`)
    this.realTime = options.realTime ?? true
    this.#clock = options.clock ?? realTimeClock
    this.#maxLateMs = (options.maxLateFrames ?? 2) * this.frameMs
    this.#signal = options.signal
    this.#anchorMs = options.startAtMs ?? (this.realTime ? undefined : 0)
  }

  /** Waits (real time) until the next frame is due and returns its slot. */
  async nextSlot(): Promise<FrameSlot> {
    const waiting = this.waitForNextSlot()
    if (waiting !== null) await waiting
    this.takeSlot()
    return { index: this.#slotIndex, scheduledMs: this.#slotScheduledMs }
  }

  /**
   * nextSlot in two calls, for a caller that sends on every slot and keeps none (the media clock): this starts
   * the next slot and returns its wait, or null when no wait is needed; takeSlot() then makes it the current
   * slot, which recordSlotLateness() records. No slot object and no async frame per frame: at 32 real-time calls
   * that was a few hundred bytes of young garbage 1,600 times a second.
   */
  waitForNextSlot(): Promise<void> | null {
    this.#signal?.throwIfAborted()
    this.#slotIndex = this.#nextIndex
    this.#nextIndex += 1
    if (this.#anchorMs === undefined) this.#anchorMs = this.#clock.now()
    const dueMs = this.#anchorMs + this.#sinceAnchor * this.frameMs
    this.#sinceAnchor += 1
    this.#slotScheduledMs = dueMs
    if (!this.realTime) return null
    const nowMs = this.#clock.now()
    this.#wokeAtMs = nowMs
    if (nowMs >= dueMs) return null
    this.#wokeAtMs = undefined
    if (this.#clock.sleepUntil !== undefined) return this.#clock.sleepUntil(dueMs, this.#signal)
    // Node timers truncate fractional milliseconds; rounding up avoids waking a whole millisecond early.
    return this.#clock.sleep(Math.ceil(dueMs - nowMs), this.#signal)
  }

  /** The sender did more between waitForNextSlot and takeSlot than wait: takeSlot reads the clock again. */
  resumed(): void {
    this.#wokeAtMs = undefined
  }

  /** After waitForNextSlot's wait: the slot waited for becomes current (re-anchored if its time was long gone). */
  takeSlot(): void {
    if (!this.realTime) return
    const dueMs = this.#slotScheduledMs
    const nowMs = this.#wokeAtMs ?? this.#clock.now()
    this.#wokeAtMs = undefined
    const lateMs = nowMs - dueMs
    if (lateMs > this.#maxLateMs) {
      this.stalls.push({ frameIndex: this.#slotIndex, missedScheduleMs: dueMs, resumedAtMs: nowMs, lateMs })
      this.#anchorMs = nowMs
      this.#sinceAnchor = 1
      this.#slotScheduledMs = nowMs
    }
  }

  /** Stamps the frame of `slot` with the send time (now, or its scheduled time on the virtual clock). */
  stamp(slot: FrameSlot): PacedFrame {
    const sentMs = this.realTime ? this.#clock.now() : slot.scheduledMs
    return { ...slot, sentMs, lateMs: sentMs - slot.scheduledMs }
  }

  /** Stamps and records that the frame of `slot` is being sent now. */
  markSent(slot: FrameSlot): PacedFrame {
    const frame = this.stamp(slot)
    this.frames.push(frame)
    this.#lateness.push(lateAgainstSlot(frame.sentMs, frame.index, frame.scheduledMs, this.stalls))
    return frame
  }

  /**
   * Records only how late the frame of `slot` is going out now, as frameLateness counts it, keeping no
   * PacedFrame: a real-time call sends fifty frames a second per session for its whole length, and the media
   * clock needs nothing else of them (an object per frame was old-generation garbage by the end of a call).
   */
  recordLateness(slot: FrameSlot): void {
    this.#recordLateness(slot.index, slot.scheduledMs)
  }

  /** recordLateness for the current slot (the one takeSlot made current). */
  recordSlotLateness(): void {
    this.#recordLateness(this.#slotIndex, this.#slotScheduledMs)
  }

  #recordLateness(index: number, scheduledMs: number): void {
    const sentMs = this.realTime ? this.#clock.now() : scheduledMs
    this.#lateness.push(lateAgainstSlot(sentMs, index, scheduledMs, this.stalls))
  }

  /** How late every frame recorded by markSent or recordLateness went out, in send order; see `frameLateness`. */
  lateness(): number[] {
    return this.#lateness.slice()
  }
}

/** A frame's lateness against its slot, or against the missed slot when it was the one a stall re-anchored at. */
function lateAgainstSlot(
  sentMs: number,
  index: number,
  scheduledMs: number,
  stalls: readonly PacingStall[],
): number {
  // A stall is recorded for the frame that found its slot missed, just before that frame is sent.
  const stall = stalls.at(-1)
  const dueMs = stall !== undefined && stall.frameIndex === index ? stall.missedScheduleMs : scheduledMs
  return Math.max(0, sentMs - dueMs)
}

/**
 * How late each sent frame went out against its slot on the schedule. A frame that found its slot missed (a
 * stall, after which the schedule was re-anchored at it) counts against the missed slot, not the new anchor:
 * that wait is the error the stall put into the timeline.
 */
export function frameLateness(record: Pick<PacingReport, 'frames' | 'stalls'>): number[] {
  const missed = new Map(record.stalls.map((stall) => [stall.frameIndex, stall.missedScheduleMs]))
  return record.frames.map((frame) =>
    Math.max(0, frame.sentMs - (missed.get(frame.index) ?? frame.scheduledMs)),
  )
}

export interface PacingReport {
  frameMs: number
  realTime: boolean
  frames: PacedFrame[]
  stalls: PacingStall[]
  /** How pacing ended: every frame sent, the consumer declined a frame (returned false), or the signal aborted. */
  ended: 'completed' | 'consumer_stopped' | 'aborted'
}

/** Called once per frame; returning (or resolving to) `false` stops pacing, e.g. a session that began closing. */
export type FrameConsumer<T> = (frame: T, sent: PacedFrame) => unknown

/**
 * Sends every frame on its slot. A slow consumer (one returning a promise) delays the frames after it, and the
 * stall rule keeps that from turning into a burst. Aborting is an intentional stop: the report says so, nothing
 * is thrown.
 */
export async function paceFrames<T>(
  frames: Iterable<T> | AsyncIterable<T>,
  consume: FrameConsumer<T>,
  options: PacingOptions = {},
): Promise<PacingReport> {
  const pacer = new FramePacer(options)
  const report = (ended: PacingReport['ended']): PacingReport => ({
    frameMs: pacer.frameMs,
    realTime: pacer.realTime,
    frames: pacer.frames,
    stalls: pacer.stalls,
    ended,
  })
  try {
    for await (const frame of frames) {
      const slot = await pacer.nextSlot()
      const sent = pacer.stamp(slot)
      const accepted = await consume(frame, sent)
      // A declined frame was not sent, so it stays out of the record the timeline is built from.
      if (accepted === false) return report('consumer_stopped')
      pacer.frames.push(sent)
    }
  } catch (error) {
    if (options.signal?.aborted) return report('aborted')
    throw error
  }
  return report(options.signal?.aborted ? 'aborted' : 'completed')
}
