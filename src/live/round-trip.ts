// A round trip through the session: proof that the peer has processed every frame sent so far and that every
// event those frames produced has arrived. The virtual clock needs it offline: the offline server's clock is
// the audio it received, so waiting for a round trip after each step pins every decision to a known audio
// position and a run produces the same bytes every time.
//
// LiveSession keeps its LiveWS private, so a WebSocket ping is out of reach from here; the round trip is made
// in band with `session.input_audio.unmute`, which every GPT-Live server answers in order with
// `session.input_audio.unmuted` (client_event_id echoed) and which changes nothing for a stream that was never
// muted. Single-turn phases never mute the caller, so the command is a pure no-op marker.

import type { LiveSession } from './session.ts'

export const ROUND_TRIP_COMMAND = 'session.input_audio.unmute'

/**
 * Sends the marker and waits for its answer. Returns false without waiting when the session is already
 * closing or over (nothing more can arrive); rejects when no answer comes within `timeoutMs` or the session
 * fails meanwhile.
 */
export async function roundTrip(
  session: Pick<LiveSession, 'send' | 'reply'>,
  timeoutMs: number,
): Promise<boolean> {
  const sent = session.send({ type: ROUND_TRIP_COMMAND })
  if (sent === null) return false
  await session.reply(sent, timeoutMs)
  return true
}
