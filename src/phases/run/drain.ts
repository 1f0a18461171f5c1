// The completion drain (§6): once a completion signal was observed (the offline caller's finish_conversation,
// or later the observer's resolved/refused verdict), the call ends only when it has truly gone quiet: at
// least `drainMs` since the signal, no delegated work, no buffered speech on either track, current evidence,
// and `finalQuietMs` of silence after anyone's last voice. New caller speech or changed evidence after the
// signal revokes it (`drain_revoked`); only a new signal can start another drain. A caller replay's recorded
// caller that is done (silenced or played out: `callerFinished`) is the exception: it will say nothing more, and
// what its recording's caller still does no longer bears on the call, so from then on nothing revokes the drain.
import { z } from 'zod'

/**
 * The completion signals, as the RUN details record the one a call ended on (`completion_signal`). A caller
 * replay's recorded caller gives the last two once it says nothing more (src/cassettes/caller): silenced, when the
 * conversation departed from the recording; played out, when nothing departed but the recording has nothing left
 * (its caller's last line played and its call over). Then only the assistant's reaction is left.
 */
export const CompletionSignalSchema = z.enum([
  'caller_finish_tool',
  'semantic_conversation_resolved',
  'semantic_conversation_refused',
  'verified_outcome_and_natural_closing',
  'replayed_caller_silenced',
  'replayed_caller_played_out',
])

export type CompletionSignal = z.infer<typeof CompletionSignalSchema>
export type ReplayedCallerSignal = Extract<CompletionSignal, `replayed_caller_${string}`>

export interface DrainRules {
  drainMs: number
  finalQuietMs: number
}

export const DEFAULT_DRAIN: DrainRules = { drainMs: 1_500, finalQuietMs: 600 }

export interface DrainState {
  nowMs: number
  /** End of the last voiced audio of either party; null before anyone spoke. */
  lastVoiceMs: number | null
  assistantBusy: boolean
  /** Speech received but not yet played out or transcribed, on either track. */
  bufferedSpeech: boolean
  evidenceCurrent: boolean
}

export interface DrainRevocation {
  atMs: number
  signal: CompletionSignal
  reason: 'caller_speech' | 'evidence_changed'
}

export class CompletionDrain {
  readonly #rules: DrainRules
  #signal: { kind: CompletionSignal; atMs: number } | null = null
  /** Set once a replayed caller is done: nothing revokes the drain any more. */
  #final = false
  /** When the first signal was observed (the row's finish_observed_ms); kept through revocations. */
  finishObservedMs: number | null = null
  readonly revocations: DrainRevocation[] = []
  /** The signal whose drain was satisfied (the call ended on it: the details' completion_signal); null until then. */
  drainedBy: CompletionSignal | null = null

  constructor(rules: DrainRules = DEFAULT_DRAIN) {
    this.#rules = rules
  }

  get signal(): CompletionSignal | null {
    return this.#signal?.kind ?? null
  }

  observeSignal(kind: CompletionSignal, atMs: number): void {
    this.#signal ??= { kind, atMs }
    this.finishObservedMs ??= atMs
  }

  /**
   * A replayed caller is done: its signal, unless one is draining already (the recording's own ending, which the
   * call then ends on), and no revocation from here on.
   */
  callerFinished(kind: ReplayedCallerSignal, atMs: number): void {
    this.observeSignal(kind, atMs)
    this.#final = true
  }

  /** Caller speech that starts after the signal revokes it: the caller is not done. */
  callerSpoke(startMs: number): void {
    this.#revokeAfter(startMs, 'caller_speech')
  }

  evidenceChanged(atMs: number): void {
    this.#revokeAfter(atMs, 'evidence_changed')
  }

  #revokeAfter(atMs: number, reason: DrainRevocation['reason']): void {
    if (this.#final || this.#signal === null || atMs <= this.#signal.atMs) return
    this.revocations.push({ atMs, signal: this.#signal.kind, reason })
    this.#signal = null
  }

  /** Whether the call may end now with `response_completed`. */
  ready(state: DrainState): boolean {
    const signal = this.#signal
    if (signal === null || state.nowMs < signal.atMs + this.#rules.drainMs) return false
    if (state.assistantBusy || state.bufferedSpeech || !state.evidenceCurrent) return false
    const lastVoice = Math.max(state.lastVoiceMs ?? 0, signal.atMs)
    if (state.nowMs < lastVoice + this.#rules.finalQuietMs) return false
    this.drainedBy = signal.kind
    return true
  }
}
