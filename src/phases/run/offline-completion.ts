// When the offline call may end: the same drain rules as a live call (§6), fed from what the offline call shows.
// The scripted caller signals with its finish_conversation control tool once its goodbye is said. New evidence after
// a signal (a caption of either side, a tool that completed) revokes it, as live: the call is not over while the
// assistant is still answering. Speech that arrived but was not heard yet blocks the end; silence held back in the
// relay does not. The evidence is current when nothing is buffered and nobody spoke within the caption settle time.
// The caller has nothing left to say after its goodbye, so once the call is current again it finishes again, and
// that signal drains when the call stays unchanged and quiet long enough.
import { CompletionDrain, type DrainRules } from './drain.ts'
import { CAPTION_SETTLE_MS } from './live/evidence.ts'
import type { PlannedUtterance } from './offline-caller.ts'
import type { CallState } from './scripted-call.ts'

export class OfflineCompletion {
  readonly drain: CompletionDrain
  readonly #plan: readonly PlannedUtterance[]
  /** When the goodbye ends and finish_conversation is called; null when the plan never says goodbye. */
  readonly #finishMs: number | null
  #finished = false
  #transcripts = -1
  #executions = -1

  constructor(rules: DrainRules, plan: readonly PlannedUtterance[]) {
    this.drain = new CompletionDrain(rules)
    this.#plan = plan
    const stop = plan.find((utterance) => utterance.action === 'STOP')
    this.#finishMs = stop === undefined ? null : stop.endMs
  }

  /** Looks at the call after a step; true when it may end with `response_completed`. */
  ready(state: CallState): boolean {
    const { nowMs, assistantBusy, bufferedSpeech } = state
    const drain = this.drain
    if (!this.#finished && this.#finishMs !== null && nowMs >= this.#finishMs) {
      drain.observeSignal('caller_finish_tool', this.#finishMs)
      this.#finished = true
    }
    for (const utterance of this.#plan) if (utterance.startMs <= nowMs) drain.callerSpoke(utterance.startMs)
    if (this.#evidenceChanged(state)) drain.evidenceChanged(nowMs)
    const callerVoiceMs = this.#callerVoiceEndMs(nowMs)
    const assistantVoiceMs = state.listener.lastVoicedEndMs
    const voiced = (ms: number | null) => ms !== null && ms > nowMs - CAPTION_SETTLE_MS
    const current = !bufferedSpeech && !voiced(callerVoiceMs) && !voiced(assistantVoiceMs)
    if (this.#finished && drain.signal === null && current && !assistantBusy) {
      drain.observeSignal('caller_finish_tool', nowMs)
    }
    const voices = [callerVoiceMs, assistantVoiceMs].filter((ms): ms is number => ms !== null)
    return drain.ready({
      nowMs,
      lastVoiceMs: voices.length === 0 ? null : Math.max(...voices),
      assistantBusy,
      bufferedSpeech,
      evidenceCurrent: current,
    })
  }

  /** A new caption (either side) or a new tool execution since the last look. */
  #evidenceChanged(state: CallState): boolean {
    const transcripts = state.timeline.transcripts.length
    const executions = state.assistant.tools.executionCount()
    if (transcripts === this.#transcripts && executions === this.#executions) return false
    const first = this.#transcripts < 0
    this.#transcripts = transcripts
    this.#executions = executions
    return !first
  }

  /** End of the caller's speech so far (up to now); null before it spoke. */
  #callerVoiceEndMs(nowMs: number): number | null {
    let last: number | null = null
    for (const utterance of this.#plan) {
      if (utterance.startMs > nowMs) continue
      last = Math.max(last ?? 0, Math.min(utterance.endMs, nowMs))
    }
    return last
  }
}
