// The one seam a recorder or a replayer uses to see a GPT-Live session: whoever runs a scenario inside
// `sessionTaps.run(tap, …)` is told about every LiveSession opened in that async context (the assistant's, RUN's
// caller's), before it dials, and may point it at another endpoint (the replay server). Nothing in src/live knows
// what a cassette is; with no tap (every run that neither records nor replays) a session is exactly as before.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { LiveEndpointSettingsInput } from './endpoint.ts'
import type { LiveSession } from './session.ts'

/** What a tapped session exposes: its sent frames and its received events (the session's own listeners). */
export type TappedSession = Pick<LiveSession, 'onSent' | 'subscribe'>

export interface SessionTap {
  /** Called before the socket exists; returns the endpoint to dial instead (replay), or the same settings. */
  endpoint?(settings: LiveEndpointSettingsInput, label: string): LiveEndpointSettingsInput
  /**
   * Called once per session after `endpoint`: a source of receive times that replaces the session clock for
   * received events (replay stamps each played frame with the time it was recorded at, so what is measured
   * from arrival times recurs exactly); undefined keeps the clock.
   */
  receiveClock?(label: string): (() => number | undefined) | undefined
  /** Called once per session, right after it was constructed and before `session.start` is sent. */
  opened(session: TappedSession, label: string): void
}

export const sessionTaps = new AsyncLocalStorage<SessionTap>()

/** A session's role in a conversation, from its event id prefix: `caller_evt_` → "caller", else "assistant". */
export function sessionLabelOf(eventIdPrefix: string): string {
  return eventIdPrefix.startsWith('caller') ? 'caller' : 'assistant'
}
