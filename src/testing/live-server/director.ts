// The seam for a server that decides per session, once it has started, how the voice model behaves and what it
// hears: used for connections whose token nobody registered (acceptAnyToken), where every session of a live run
// arrives with the same API key. The dress-rehearsal server (src/testing/rehearsal) chooses the behaviour from
// the session's instructions and hears the caller's audio by its content; the offline harness never needs this,
// because it registers each session under a token of its own.
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import type { HeardUtterance } from './script.ts'
import type { ParsedSessionConfig } from './session-config-schema.ts'

export interface DirectedStart {
  /** The validated `session.start` configuration. */
  config: ParsedSessionConfig
  /**
   * Adds one utterance to what this session hears, on its received-audio clock (as OfflineLiveServer.hear does
   * for a registered token). Utterances must come in order without overlapping.
   */
  hear(utterance: HeardUtterance): void
}

/** What a directed session does; every part is optional (nothing given: it hears nothing and never speaks). */
export interface DirectedSession {
  behaviour?: OfflineBehaviour
  /**
   * Called after each `session.input_audio.append`, once the received-audio clock has advanced past it, with
   * its decoded PCM16 samples and the clock at its end (ms). What it hears it reports through `hear`.
   */
  receiveAudio?(samples: Int16Array, endMs: number): void
  /** The voice model decided to say `text` as these samples (its synthetic voice at the session's rate). */
  spoke?(text: string, samples: Int16Array): void
  /** The session ended (closed by either side or dropped); called at most once. */
  ended?(): void
}

export interface SessionDirector {
  /** Called once per unregistered session, at `session.start`; null leaves it deaf and mute. */
  direct(start: DirectedStart): DirectedSession | null
}
