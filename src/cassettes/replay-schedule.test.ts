// When the replay plays what the recording received (replay-schedule.ts), on a recording written out by hand: the
// assistant's audio frames (A1…), what it received (E…), what the harness sent besides audio (O…) and HTTP.
import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  HOLD_LIMIT_MS,
  ReplaySchedule,
  type ScheduleClock,
  type ScheduledItem,
  type ScheduledSend,
} from './replay-schedule.ts'

const append = (seq: number, channel = 'assistant'): ScheduledSend => ({
  seq,
  channel,
  kind: 'append',
  message: 'session.input_audio.append',
})
const command = (seq: number, channel = 'assistant'): ScheduledSend => ({
  seq,
  channel,
  kind: 'other',
  message: 'session.commentary.append',
})
const request = (seq: number, channel: string): ScheduledSend => ({
  seq,
  channel,
  kind: 'http',
  message: 'POST /v1/responses',
})
const item = (seq: number, channel = 'assistant'): ScheduledItem => ({ seq, channel })

function scheduleOf(sends: ScheduledSend[], items: ScheduledItem[], clock: ScheduleClock = 'virtual') {
  const delivered: number[] = []
  const missing: string[] = []
  const schedule = new ReplaySchedule(
    sends,
    items,
    {
      deliver: (played) => delivered.push(played.seq),
      missing: (channel, what) => missing.push(`${channel}: ${what.map((send) => send.seq).join(',')}`),
    },
    clock,
  )
  const answered: string[] = []
  const roundTrip = (channel = 'assistant') => schedule.roundTrip(channel, () => answered.push(channel))
  return { schedule, delivered, missing, answered, roundTrip }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('on the virtual clock', () => {
  test('what came after a frame is played at the round trip before the next one, not when the frame is heard', () => {
    // A1(0) E(1) E(2) A2(3) E(4) A3(5)
    const replay = scheduleOf([append(0), append(3), append(5)], [item(1), item(2), item(4)])
    replay.schedule.heard(0)
    expect(replay.delivered).toEqual([])
    replay.roundTrip()
    expect(replay.delivered).toEqual([1, 2])
    expect(replay.answered).toEqual(['assistant'])
    replay.schedule.heard(3)
    replay.roundTrip()
    expect(replay.delivered).toEqual([1, 2, 4])
  })

  test("an answer to the harness's own message comes at once; one the recording got only frames later waits", () => {
    // O(0) E(1) A1(2) E(3): E(1) answers O, E(3) came after the frame.
    const replay = scheduleOf([command(0), append(2)], [item(1), item(3)])
    replay.schedule.heard(0)
    expect(replay.delivered).toEqual([1])
    replay.schedule.heard(2)
    expect(replay.delivered).toEqual([1])
  })

  test('a round trip waits for what the recording sent before the next frame: the reaction, its backend round', () => {
    // A1(0) E(1) [the harness reacts:] R(2) → answer(3), O(4), E(5), A2(6)
    const replay = scheduleOf(
      [append(0), request(2, 'http 2'), command(4), append(6)],
      [item(1), item(3, 'http 2'), item(5)],
    )
    replay.schedule.heard(0)
    replay.roundTrip()
    expect(replay.delivered).toEqual([1])
    expect(replay.answered).toEqual([])
    replay.schedule.heard(2)
    expect(replay.delivered).toEqual([1, 3])
    expect(replay.answered).toEqual([])
    replay.schedule.heard(4)
    expect(replay.delivered).toEqual([1, 3, 5])
    expect(replay.answered).toEqual(['assistant'])
  })

  test('an HTTP answer waits for its own request and the audio before it, never for another request', () => {
    // R1(0) R2(1) answer2(2) A1(3) answer1(4): the judge's requests, queued behind a limiter now, come in any order.
    const replay = scheduleOf(
      [request(0, 'http 0'), request(1, 'http 1'), append(3)],
      [item(2, 'http 1'), item(4, 'http 0')],
    )
    replay.schedule.heard(1)
    expect(replay.delivered).toEqual([2])
    replay.schedule.heard(0)
    // Its answer came only after the next frame.
    expect(replay.delivered).toEqual([2])
    replay.schedule.heard(3)
    replay.roundTrip()
    expect(replay.delivered).toEqual([2, 4])
  })

  test('what the harness no longer sends is named after the hold, given up, and the replay goes on', () => {
    vi.useFakeTimers()
    // A1(0) E(1) O(2) E(3) A2(4): O never comes now.
    const replay = scheduleOf([append(0), command(2), append(4)], [item(1), item(3)])
    replay.schedule.heard(0)
    replay.roundTrip()
    expect(replay.answered).toEqual([])
    vi.advanceTimersByTime(HOLD_LIMIT_MS)
    expect(replay.missing).toEqual(['assistant: 2'])
    expect(replay.delivered).toEqual([1, 3])
    expect(replay.answered).toEqual(['assistant'])
  })

  test('a round trip is needed only where the recording had more than audio before the frame', () => {
    // A1(0) A2(1) E(2) A3(3) A4(4)
    const { schedule } = scheduleOf([append(0), append(1), append(3), append(4)], [item(2)])
    expect(schedule.quietBeforeFrame('assistant', 0)).toBe(true)
    expect(schedule.quietBeforeFrame('assistant', 1)).toBe(true)
    expect(schedule.quietBeforeFrame('assistant', 2)).toBe(false)
    schedule.heard(0)
    schedule.heard(1)
    // Still owed: E(2) was not delivered yet.
    expect(schedule.quietBeforeFrame('assistant', 3)).toBe(false)
    // Past the recording's frames the replay synchronises at every frame.
    expect(schedule.quietBeforeFrame('assistant', 4)).toBe(false)
  })
})

describe('on the real-time clock (a replayed caller beside a live assistant)', () => {
  test("each item is played as soon as its own session's sends before it were heard, the other session's aside", () => {
    // caller: A1(0) E(2); assistant (live, never heard here): A1(1) E(3)
    const replay = scheduleOf(
      [append(0, 'caller'), append(1, 'assistant')],
      [item(2, 'caller'), item(3, 'assistant')],
      'real_time',
    )
    replay.schedule.heard(0)
    expect(replay.delivered).toEqual([2])
  })
})
