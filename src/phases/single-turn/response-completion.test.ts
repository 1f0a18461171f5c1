import { describe, expect, it } from 'vitest'
import { QUIET_TAIL_MS, ResponseCompletionTracker } from './response-completion.ts'

const tracker = (timeoutMs = 30_000) => new ResponseCompletionTracker({ responseTimeoutMs: timeoutMs })

describe('single-turn response completion (§4.4)', () => {
  it('completes a direct answer after a voiced episode and the quiet tail', () => {
    const t = tracker()
    t.callerInputEnded(2_000)
    t.assistantAudio(2_400, 3_000, true)
    expect(t.decide(3_000 + QUIET_TAIL_MS - 1)).toEqual({ state: 'waiting', waitingFor: 'quiet_tail' })
    expect(t.decide(3_000 + QUIET_TAIL_MS)).toEqual({ state: 'completed', atMs: 3_600 })
  })

  it('waits for the caller input to finish first', () => {
    const t = tracker()
    t.assistantAudio(100, 500, true)
    expect(t.decide(5_000)).toEqual({ state: 'waiting', waitingFor: 'caller_input' })
  })

  it('never completes on caption-only or silent output', () => {
    const t = tracker()
    t.callerInputEnded(1_000)
    t.assistantCaption(1_200)
    t.assistantAudio(1_200, 2_000, false)
    expect(t.decide(10_000)).toEqual({ state: 'waiting', waitingFor: 'voiced_response' })
  })

  it('waits for delegated work, then for a new voiced episode after the result', () => {
    const t = tracker()
    t.callerInputEnded(1_000)
    t.delegationStarted('del_1')
    // An acknowledgement while the backend works does not count as the answer.
    t.assistantAudio(1_300, 1_900, true)
    expect(t.decide(4_000)).toEqual({ state: 'waiting', waitingFor: 'delegated_work' })
    t.delegationSettled('del_1', 4_000)
    expect(t.decide(5_000)).toEqual({ state: 'waiting', waitingFor: 'voiced_response' })
    t.assistantAudio(5_000, 6_000, true)
    expect(t.decide(6_600)).toEqual({ state: 'completed', atMs: 6_600 })
  })

  it('does not count audio continuing an episode that was under way when the result arrived', () => {
    const t = tracker()
    t.callerInputEnded(1_000)
    t.delegationStarted('del_1')
    t.assistantAudio(1_300, 2_000, true)
    t.delegationSettled('del_1', 1_900)
    t.assistantAudio(2_000, 2_500, true)
    expect(t.decide(4_000)).toEqual({ state: 'waiting', waitingFor: 'voiced_response' })
    t.assistantAudio(4_100, 4_500, true)
    expect(t.decide(5_100)).toEqual({ state: 'completed', atMs: 5_100 })
  })

  it('counts repeated delegation ids once and ignores settling an unknown id', () => {
    const t = tracker()
    t.callerInputEnded(1_000)
    t.delegationStarted('del_1')
    t.delegationStarted('del_1')
    t.delegationSettled('del_x', 1_500)
    expect(t.decide(2_000)).toEqual({ state: 'waiting', waitingFor: 'delegated_work' })
    t.delegationSettled('del_1', 2_000)
    t.assistantAudio(2_100, 2_500, true)
    expect(t.decide(3_100).state).toBe('completed')
  })

  it('extends the quiet tail while captions keep arriving', () => {
    const t = tracker()
    t.callerInputEnded(1_000)
    t.assistantAudio(1_400, 2_000, true)
    t.assistantCaption(2_500)
    expect(t.decide(2_700)).toEqual({ state: 'waiting', waitingFor: 'quiet_tail' })
    expect(t.decide(3_100).state).toBe('completed')
  })

  it('times out counted from the end of caller input, never restarted by later activity', () => {
    const t = tracker(5_000)
    t.callerInputEnded(2_000)
    t.delegationStarted('del_1')
    t.assistantAudio(2_500, 3_000, true)
    expect(t.decide(6_999).state).toBe('waiting')
    expect(t.decide(7_000)).toEqual({ state: 'timed_out', atMs: 7_000 })
  })

  it('does not time out before caller input ended', () => {
    const t = tracker(1_000)
    expect(t.decide(60_000)).toEqual({ state: 'waiting', waitingFor: 'caller_input' })
  })

  it('refuses a non-positive timeout', () => {
    expect(() => tracker(0)).toThrow(/responseTimeoutMs must be positive/)
  })
})
