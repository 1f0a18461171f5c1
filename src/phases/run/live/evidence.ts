// The evidence the completion decision rests on, as one value that changes only when the call does: a revision
// bumped by every new caption (either side) and every terminal tool execution, the transcript lines and the
// application state read once per revision, and whether the evidence is current (§6: nobody talking, no speech
// buffered in the relay, no caption still due, the caller's backend idle).

import type { ApplicationView } from '../../../assistants/architectures/index.ts'
import { runOutcomeVerified } from '../../../grading/final-state.ts'
import type { JsonObject } from '../../../grading/json-values.ts'
import type { SessionTimeline, TimelineLine } from '../../../observability/timeline.ts'
import type { EvidenceMoment } from './completion-observer.ts'
import { OBSERVER_CONVERSATION_TURNS, type ObservedEvidence } from './observer-call.ts'
import type { ConversationRelay } from './relay.ts'

/**
 * How long after the last voiced frame a track still counts as talking: captions trail the audio that carries
 * them, so a moment this close to speech is not yet current evidence.
 */
export const CAPTION_SETTLE_MS = 300

export interface EvidenceSources {
  timeline: SessionTimeline
  relay: ConversationRelay
  tools: ApplicationView
  expectedState: JsonObject
  /** Delegated work of the assistant is running. */
  assistantBusy: () => boolean
  /** The caller's backend is reasoning. */
  callerBackendWorking: () => boolean
}

export class ConversationEvidence {
  readonly #sources: EvidenceSources
  #revision = 0
  #transcriptCount = -1
  #executionCount = -1
  #lines: TimelineLine[] = []
  #callerLines = 0
  #state: JsonObject = {}
  #verified = false

  constructor(sources: EvidenceSources) {
    this.#sources = sources
  }

  /** Reads the call (`executions`: terminal tool executions so far); true when the evidence changed. */
  refresh(executions: number): boolean {
    const { timeline, tools, expectedState } = this.#sources
    if (timeline.transcripts.length === this.#transcriptCount && executions === this.#executionCount)
      return false
    this.#transcriptCount = timeline.transcripts.length
    this.#executionCount = executions
    this.#revision += 1
    this.#lines = timeline.lines()
    this.#callerLines = this.#lines.filter((line) => line.role === 'user').length
    this.#state = tools.snapshot()
    this.#verified = runOutcomeVerified(expectedState, tools.initialState, this.#state)
    return true
  }

  get revision(): number {
    return this.#revision
  }

  get lines(): readonly TimelineLine[] {
    return this.#lines
  }

  /** The expected state is stated and the application holds it. */
  get stateVerified(): boolean {
    return this.#verified
  }

  lastLine(role: TimelineLine['role']): TimelineLine | null {
    for (let index = this.#lines.length - 1; index >= 0; index--) {
      const line = this.#lines[index] as TimelineLine
      if (line.role === role) return line
    }
    return null
  }

  isCurrent(nowMs: number): boolean {
    const { relay } = this.#sources
    return (
      !relay.bufferedSpeech &&
      !relay.callerTrack.voicedSince(nowMs, CAPTION_SETTLE_MS) &&
      !relay.assistantTrack.voicedSince(nowMs, CAPTION_SETTLE_MS) &&
      !this.#sources.callerBackendWorking()
    )
  }

  moment(nowMs: number): EvidenceMoment {
    const { relay } = this.#sources
    return {
      nowMs,
      revision: this.#revision,
      lastCallerSpeechMs: relay.callerTrack.lastVoiceEndMs,
      lastAssistantSpeechMs: relay.assistantTrack.lastVoiceEndMs,
      current: this.isCurrent(nowMs),
      callerUtterances: this.#callerLines,
      assistantTurns: this.#lines.length - this.#callerLines,
      delegationActive: this.#sources.assistantBusy(),
      expectsState: Object.keys(this.#sources.expectedState).length > 0,
      stateVerified: this.#verified,
    }
  }

  /** What the observer reads of the call now (its evaluator-only facts are added by the caller of this). */
  observed(): ObservedEvidence {
    const { tools } = this.#sources
    return {
      initial_application_state: structuredClone(tools.initialState),
      observed_application_state: structuredClone(this.#state),
      expected_state_verified: this.#verified,
      assistant_work_pending: this.#sources.assistantBusy(),
      completed_application_tools: tools
        .executions()
        .map((record) => ({ name: record.name, status: record.status, output: record.output })),
      conversation: this.#lines
        .slice(-OBSERVER_CONVERSATION_TURNS)
        .map((line) => ({ role: line.role, text: line.text, end_ms: Math.round(line.endMs) })),
    }
  }
}
