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
  /**
   * The other side is heard to start speaking now, before what it says is over (voice activity): `text` when its
   * start is already known to say that, null otherwise. A talking voice model yields the floor, as it does at the
   * start of a heard utterance, unless `text` is a backchannel.
   */
  speechStarted(text: string | null): void
  /**
   * The voice model says `text` now on its own initiative, not in answer to an utterance it heard (a caller that
   * barges in, or goes on after its own backchannel): with Responses delegation as a backend round, as its
   * replies are. Nothing happens unless the session is active.
   */
  say(text: string): void
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
  /** One of its utterances stopped going out (finished, or cut short by a yield), at `endMs` on the session clock. */
  stoppedSpeaking?(interval: { startMs: number; endMs: number }): void
  /** The session ended (closed by either side or dropped); called at most once. */
  ended?(): void
}

export interface SessionDirector {
  /** Called once per unregistered session, at `session.start`; null leaves it deaf and mute. */
  direct(start: DirectedStart): DirectedSession | null
}
