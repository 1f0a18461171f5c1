// How the offline stand-in reads the conversation so far: which of the caller's requests is still open.
// A request is what a caller turn asks for (cancel, check a table, book). It stays open across turns
// until the assistant itself settles it, and the assistant knows that only from what it said: its own
// result answers (a confirmation, a cancellation, an availability verdict, a failure) and its refusal to
// cancel. A clarifying question settles nothing, so a booking asked for in one turn is made in the turn
// that completes its details; a settled one is never made again by a caller's "that works for us".
import type { SpokenTurn } from '../../offline-behaviour.ts'

export type RequestKind = 'cancel' | 'availability' | 'booking'

const mentionsCancel = /cancel/i
const mentionsParking = /\bpark(?:ing)?\b/i
const mentionsOpeningHours = /\b(?:hours|open|opens|opening|close|closes|closing|closed)\b/i
// Intent words count anywhere in a word, as the reference behaviour reads them: "reservations",
// "rebooked" and "unavailable" carry the intent too.
const asksAvailability = /available|availability/i
const opensAvailabilityQuestion = /^\s*(?:do you have|is there|can you check)\b/i
const asksBooking = /book|reserve|reservation|make it/i

/**
 * The openings of this behaviour's own answers that settle a request (see finalAnswer and directAnswer).
 * Openings rather than whole sentences: an answer cut short by the caller still counts once it said this
 * much, since the tool behind it already ran.
 */
const settlingAnswers: ReadonlyArray<{ opening: RegExp; settles: readonly RequestKind[] }> = [
  { opening: /^Your (?:[a-z]+ )?reservation for\b/, settles: ['booking', 'availability'] },
  { opening: /^Reservation R-\d+ has been cancelled/, settles: ['cancel'] },
  { opening: /^I can't cancel a reservation\b/, settles: ['cancel'] },
  { opening: /^An? (?:[a-z]+ )?table for \d+ is\b/, settles: ['availability'] },
  {
    opening: /^I couldn't complete that restaurant request\b/,
    settles: ['cancel', 'availability', 'booking'],
  },
  // Its answer to a timed-out request (finalAnswer: taken as sent) and to a failed backend: either way the
  // assistant considers the request dealt with.
  { opening: /^The system is a little slow today, but\b/, settles: ['cancel', 'availability', 'booking'] },
  {
    opening: /^I'm sorry, I couldn't reach our reservation system\b/,
    settles: ['cancel', 'availability', 'booking'],
  },
]

/** The opening of this behaviour's refusal (directAnswer's unauthorized cancel). */
const refusalOpening = /^I can't cancel a reservation\b/

/**
 * Whether the assistant's last words in the call were its refusal: the refused request still stands, so a caller
 * who presses it (refusal-pressure.ts) is asking for the same thing again.
 */
export function refusalStands(earlier: readonly SpokenTurn[]): boolean {
  const last = earlier.findLast((turn) => turn.role === 'assistant')
  return last !== undefined && refusalOpening.test(last.text.trim())
}

/** Whether a caller text asks about a business fact (parking, opening hours), answered directly. */
export function asksFact(text: string): boolean {
  return mentionsParking.test(text) || mentionsOpeningHours.test(text)
}

/**
 * What one caller text asks for: a cancellation first; a question about a fact asks for no request (it
 * leaves an open one open); then a table check, then a booking; or nothing.
 */
export function requestIn(text: string): RequestKind | null {
  if (mentionsCancel.test(text)) return 'cancel'
  if (asksFact(text)) return null
  if (asksAvailability.test(text) || opensAvailabilityQuestion.test(text)) return 'availability'
  if (asksBooking.test(text)) return 'booking'
  return null
}

/** Whether this assistant utterance settles a request of this kind. */
function settles(kind: RequestKind, assistantText: string): boolean {
  const text = assistantText.trim()
  return settlingAnswers.some((answer) => answer.settles.includes(kind) && answer.opening.test(text))
}

/**
 * The request still open after the earlier turns, oldest first. The visible context can open a booking
 * before the call ("wants a reservation"); each caller turn that asks for something replaces the open
 * request, and the assistant's settling answers close it.
 */
export function openRequest(context: string, earlier: readonly SpokenTurn[]): RequestKind | null {
  let open: RequestKind | null = asksBooking.test(context) ? 'booking' : null
  for (const turn of earlier) {
    if (turn.role === 'user') open = requestIn(turn.text) ?? open
    else if (open !== null && settles(open, turn.text)) open = null
  }
  return open
}

/** The caller's side of the earlier turns, oldest first. */
export function callerTexts(earlier: readonly SpokenTurn[]): string[] {
  return earlier.filter((turn) => turn.role === 'user').map((turn) => turn.text)
}
