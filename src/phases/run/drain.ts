// The completion drain (§6): once a completion signal was observed (the offline caller's finish_conversation,
// or later the observer's resolved/refused verdict), the call ends only when it has truly gone quiet: at
// least `drainMs` since the signal, no delegated work, no buffered speech on either track, current evidence,
// and `finalQuietMs` of silence after anyone's last voice. New caller speech or changed evidence after the
// signal revokes it (`drain_revoked`); only a new signal can start another drain. A caller replay's recorded
// caller that is done (silenced or played out) is the exception the call loop makes: nothing revokes that signal.

/** A caller replay's recorded caller says nothing more (src/cassettes/caller): the assistant's reaction is left. */
export type ReplayedCallerSignal =
  /** The conversation departed from the recording, and the recorded caller was silenced there. */
  | 'replayed_caller_silenced'
  /** Nothing departed, but the recording has nothing left: its caller's last line was played and its call is over. */
  | 'replayed_caller_played_out'

export type CompletionSignal =
  | 'caller_finish_tool'
  | 'semantic_conversation_resolved'
  | 'semantic_conversation_refused'
  | 'verified_outcome_and_natural_closing'
  | ReplayedCallerSignal

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

  /** Caller speech that starts after the signal revokes it: the caller is not done. */
  callerSpoke(startMs: number): void {
    this.#revokeAfter(startMs, 'caller_speech')
  }

  evidenceChanged(atMs: number): void {
    this.#revokeAfter(atMs, 'evidence_changed')
  }

  #revokeAfter(atMs: number, reason: DrainRevocation['reason']): void {
    if (this.#signal === null || atMs <= this.#signal.atMs) return
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
