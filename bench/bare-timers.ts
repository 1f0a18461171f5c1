// Bare Node timers for the bench's baselines: a frame schedule of its own, without the loop waker the harness's
// shared schedule has, so a baseline reads what any timer gives on this machine rather than the harness's own
// pacing (run-realtime.ts, timers-alongside.ts).
import { type PacingClock, realTimeClock } from '../src/audio/pacing.ts'
import { FrameSchedule } from '../src/audio/pacing-schedule.ts'

export function bareTimersClock(): PacingClock {
  const schedule = new FrameSchedule()
  return { ...realTimeClock, sleepUntil: (dueMs, signal) => schedule.wait(dueMs, signal) }
}
