// Outcome and terminal-state rules, split out of session.ts: which phase a failure is attributed to, which server
// errors and socket events end a session and how, what `session.closed` settles, and what start() reports once the
// session is over. Pure decisions; the session applies them and keeps the exactly-once guarantee.
import { type LiveErrorKind, LiveSessionError, type LiveSessionStage } from './errors.ts'
import type { ErrorEvent, SessionClosedEvent } from './events.ts'
import type { LiveSessionClosed, LiveSessionOutcome } from './outcome.ts'

/** Server error codes that end a started session (account or key problems); other command errors do not. */
export const FATAL_SERVER_ERROR_CODES: ReadonlySet<string> = new Set([
  'invalid_api_key',
  'insufficient_quota',
  'account_deactivated',
  'billing_hard_limit_reached',
])

export type SessionPhase = 'idle' | 'starting' | 'started' | 'closing' | 'ended'

/** The stage a failure in `phase` is attributed to; before the start, whether the socket opened decides. */
export function stageOf(phase: SessionPhase, socketOpen: boolean): LiveSessionStage {
  if (phase === 'closing') return 'close'
  if (phase === 'started') return 'stream'
  return socketOpen ? 'start' : 'connect'
}

/** Errors before `session.started` always end the session; after it, `isFatal` decides. */
export function serverErrorEndsSession(
  phase: SessionPhase,
  error: ErrorEvent['error'],
  isFatal: (error: ErrorEvent['error']) => boolean,
): boolean {
  return phase === 'idle' || phase === 'starting' || isFatal(error)
}

export function serverErrorMessage(error: ErrorEvent['error']): string {
  return `server error ${error.code ?? 'no code'}: ${error.message}`
}

/**
 * LiveWS reports a frame it cannot use as an event (bad JSON, no own string type, reserved type) with a message
 * starting "received "; anything else is the socket itself failing.
 */
export function socketErrorKind(message: string): LiveErrorKind {
  return message.startsWith('received ') ? 'malformed_event' : 'transport'
}

/**
 * The failure message of a socket that closed before `session.closed`; while closing, finalization is unknown. The
 * server's last `error` event, when one came, is quoted: it is usually why the server closed.
 */
export function unexpectedCloseMessage(
  code: number,
  reason: string,
  phase: SessionPhase,
  lastServerError?: ErrorEvent['error'],
): string {
  const detail = reason ? `code ${code}, "${reason}"` : `code ${code}`
  const finalization = phase === 'closing' ? '; finalization unconfirmed' : ''
  const after = lastServerError === undefined ? '' : ` after ${serverErrorMessage(lastServerError)}`
  return `connection closed (${detail}) before session.closed${finalization}${after}`
}

/** The provider's finalization; `requested` says whether it answered our `session.close`. */
export function closedOutcomeOf(
  event: SessionClosedEvent,
  requested: boolean,
  atMs: number,
): LiveSessionClosed {
  return {
    type: 'closed',
    synthetic: false,
    reason: event.reason,
    usageSeconds: event.usage.seconds,
    requested,
    event,
    atMs,
  }
}

/** Why start() cannot succeed: the failure itself, the abort reason, or a local-shutdown error. */
export function startFailureOf(
  outcome: LiveSessionOutcome | undefined,
  signal: AbortSignal | undefined,
): unknown {
  if (outcome?.type === 'failed') return outcome.error
  if (outcome?.type === 'local_shutdown' && outcome.cause === 'aborted') return signal?.reason
  return new LiveSessionError(`session was ${outcome?.type === 'closed' ? 'closed' : 'shut down locally'}`, {
    stage: 'start',
    kind: 'local_shutdown',
  })
}
