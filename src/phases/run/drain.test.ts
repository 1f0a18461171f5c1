import { describe, expect, it } from 'vitest'
import { CompletionDrain, type DrainState } from './drain.ts'

const quiet = (nowMs: number, overrides: Partial<DrainState> = {}): DrainState => ({
  nowMs,
  lastVoiceMs: 10_000,
  assistantBusy: false,
  bufferedSpeech: false,
  evidenceCurrent: true,
  ...overrides,
})

describe('completion drain', () => {
  it('never ends without a signal', () => {
    expect(new CompletionDrain().ready(quiet(60_000))).toBe(false)
  })
  it('ends after drain_ms and the final quiet, not before', () => {
    const drain = new CompletionDrain()
    drain.observeSignal('caller_finish_tool', 10_000)
    expect(drain.ready(quiet(11_000))).toBe(false)
    expect(drain.drainedBy).toBeNull()
    expect(drain.ready(quiet(11_500))).toBe(true)
    // The signal the call ended on (the details' completion_signal).
    expect(drain.drainedBy).toBe('caller_finish_tool')
    // The assistant's farewell still playing at the signal: 600 ms of quiet after it first.
    expect(drain.ready(quiet(11_500, { lastVoiceMs: 11_200 }))).toBe(false)
    expect(drain.ready(quiet(11_800, { lastVoiceMs: 11_200 }))).toBe(true)
  })
  it('waits for delegated work, buffered speech and current evidence', () => {
    const drain = new CompletionDrain()
    drain.observeSignal('semantic_conversation_resolved', 10_000)
    expect(drain.ready(quiet(20_000, { assistantBusy: true }))).toBe(false)
    expect(drain.ready(quiet(20_000, { bufferedSpeech: true }))).toBe(false)
    expect(drain.ready(quiet(20_000, { evidenceCurrent: false }))).toBe(false)
    expect(drain.ready(quiet(20_000))).toBe(true)
  })
  it('a replayed caller that is done: its signal, or the one already draining, and nothing revokes it', () => {
    const drain = new CompletionDrain()
    drain.callerFinished('replayed_caller_played_out', 10_000)
    drain.callerSpoke(10_500)
    drain.evidenceChanged(10_700)
    expect(drain.revocations).toEqual([])
    expect(drain.ready(quiet(11_500))).toBe(true)
    expect(drain.drainedBy).toBe('replayed_caller_played_out')
    // The recording's own ending was draining already: the call ends on it, and from then on it is not revoked.
    const following = new CompletionDrain()
    following.observeSignal('semantic_conversation_resolved', 9_000)
    following.callerFinished('replayed_caller_played_out', 10_000)
    following.callerSpoke(10_200)
    expect(following.revocations).toEqual([])
    expect(following.ready(quiet(10_600))).toBe(true)
    expect(following.drainedBy).toBe('semantic_conversation_resolved')
  })
  it('new caller speech after the signal revokes the drain; only a new signal restarts it', () => {
    const drain = new CompletionDrain()
    drain.observeSignal('semantic_conversation_resolved', 10_000)
    drain.callerSpoke(9_000) // before the signal: nothing to revoke
    expect(drain.signal).toBe('semantic_conversation_resolved')
    drain.callerSpoke(10_400)
    expect(drain.revocations).toEqual([
      { atMs: 10_400, signal: 'semantic_conversation_resolved', reason: 'caller_speech' },
    ])
    expect(drain.ready(quiet(30_000))).toBe(false)
    drain.observeSignal('semantic_conversation_resolved', 14_000)
    expect(drain.ready(quiet(15_500))).toBe(true)
    // The first signal is what the row reports as finish_observed_ms.
    expect(drain.finishObservedMs).toBe(10_000)
  })
  it('changed evidence revokes too', () => {
    const drain = new CompletionDrain()
    drain.observeSignal('caller_finish_tool', 10_000)
    drain.evidenceChanged(10_100)
    expect(drain.signal).toBeNull()
    expect(drain.revocations[0]?.reason).toBe('evidence_changed')
  })
})
