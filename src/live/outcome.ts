import type { LiveSessionError } from './errors.ts'
import type { SessionClosedEvent } from './events.ts'

/** The provider finalized the session: its `session.closed`, with the final cumulative usage. */
export interface LiveSessionClosed {
  type: 'closed'
  synthetic: false
  reason: SessionClosedEvent['reason']
  /** Final cumulative `usage.seconds` from `session.closed`. */
  usageSeconds: number
  /** True when the close followed our `session.close`; false when the server ended the session on its own. */
  requested: boolean
  event: SessionClosedEvent
  atMs: number
}

/** The session ended without provider finalization; `error.stage` says where. */
export interface LiveSessionFailed {
  type: 'failed'
  synthetic: false
  error: LiveSessionError
  atMs: number
}

/**
 * We shut the session down ourselves (abort signal, dispose, or close before `session.started`). Synthetic: it is
 * never evidence that the provider finalized anything, and it is not a failure.
 */
export interface LiveSessionShutDown {
  type: 'local_shutdown'
  synthetic: true
  cause: 'aborted' | 'disposed' | 'closed_before_start'
  atMs: number
}

/** Exactly one of these ends every session. */
export type LiveSessionOutcome = LiveSessionClosed | LiveSessionFailed | LiveSessionShutDown
