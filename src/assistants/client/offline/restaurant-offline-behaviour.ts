// The deterministic stand-in for the voice model and its backend when we run offline. It sees only
// what the assistant may see (the conversation context, the authorized initial state and the public
// business facts) and decides from the caller's words alone: cancel, answer a fact, check a table,
// book, or ask for what is missing. Availability itself is decided by the executor, never here.
import type { InferredToolCall, JsonObject, OfflineBehaviour } from '../../offline-behaviour.ts'
import { publicBusinessFacts } from '../tools/resources.ts'
import { type BookingDetails, lastReservationId, mergedDetails } from './extract.ts'

export interface RestaurantOfflineBehaviourOptions {
  /** The scenario's visible conversation context: the summary, then `role: text` history lines. */
  conversationContext: string
  /** The application state the assistant is authorized to read. */
  initialState: JsonObject
  /** Public business facts; default this copy's facts without the private overrides. */
  facts?: JsonObject
}

const defaultReferenceYear = 2026
const mentionsCancel = /cancel/i
const mentionsParking = /\bpark(?:ing)?\b/i
const mentionsOpeningHours = /\b(?:hours|open|opens|opening|close|closes|closing|closed)\b/i
// Intent words count anywhere in a word, as the reference behaviour reads them: "reservations",
// "rebooked" and "unavailable" carry the intent too.
const asksAvailability = /available|availability/i
const opensAvailabilityQuestion = /^\s*(?:do you have|is there|can you check)\b/i
const asksBooking = /book|reserve|reservation|make it/i

export class RestaurantOfflineBehaviour implements OfflineBehaviour {
  readonly conversationContext: string
  readonly #initialState: JsonObject
  readonly #facts: JsonObject

  constructor(options: RestaurantOfflineBehaviourOptions) {
    const facts = options.facts ?? publicBusinessFacts()
    // A guard at the leak boundary: private overrides would let the stand-in know what only the
    // executor may decide.
    if ('availability_overrides' in facts) {
      throw new Error(
        'RestaurantOfflineBehaviour received private availability_overrides; pass publicBusinessFacts() instead.',
      )
    }
    this.conversationContext = options.conversationContext
    this.#initialState = structuredClone(options.initialState)
    this.#facts = structuredClone(facts)
  }

  inferToolCall(userText: string): InferredToolCall | null {
    if (mentionsCancel.test(userText)) {
      const reservationId = this.#reservationIdToCancel(userText)
      return reservationId !== null && this.#isAuthorized(reservationId)
        ? { name: 'cancel_reservation', arguments: { reservation_id: reservationId } }
        : null
    }
    if (mentionsParking.test(userText) || mentionsOpeningHours.test(userText)) return null
    const details = this.#details(userText)
    const { guest_name, date, time, party_size, seating } = details
    if (date === undefined || time === undefined || party_size === undefined) return null
    const table: JsonObject = { date, time, party_size }
    if (seating !== undefined) table.seating = seating
    if (asksAvailability.test(userText) || opensAvailabilityQuestion.test(userText)) {
      return { name: 'check_availability', arguments: table }
    }
    if (guest_name !== undefined && asksBooking.test(`${this.conversationContext}\n${userText}`)) {
      return { name: 'create_reservation', arguments: { guest_name, ...table } }
    }
    return null
  }

  directAnswer(userText: string): string {
    if (mentionsCancel.test(userText)) {
      const reservationId = this.#reservationIdToCancel(userText)
      if (reservationId === null) return 'Which reservation ID would you like to cancel?'
      if (!this.#isAuthorized(reservationId)) {
        return "I can't cancel a reservation that you aren't authorized to manage."
      }
      return `Should I cancel reservation ${reservationId}?`
    }
    if (mentionsParking.test(userText)) return String(this.#facts.parking ?? '')
    if (mentionsOpeningHours.test(userText))
      return `Our restaurant hours are ${String(this.#facts.hours ?? '')}.`
    return missingDetailsQuestion(this.#details(userText))
  }

  finalAnswer(output: JsonObject): string {
    if (output.ok !== true) return "I couldn't complete that restaurant request."
    if (typeof output.available === 'boolean') {
      const table = output.seating === undefined ? 'A table' : `A ${String(output.seating)} table`
      const availability = output.available ? 'available' : 'not available'
      return `${table} for ${String(output.party_size)} is ${availability} on ${String(output.date)} at ${String(output.time)}. No reservation has been made.`
    }
    if (output.reservation_created === true) {
      const kind = output.seating === undefined ? 'reservation' : `${String(output.seating)} reservation`
      return `Your ${kind} for ${String(output.guest_name)} and ${String(output.party_size)} guests is confirmed on ${String(output.date)} at ${String(output.time)}.`
    }
    if (output.cancelled === true) return `Reservation ${String(output.reservation_id)} has been cancelled.`
    // Not one of our tools' results: claim nothing rather than invent a completed action.
    return "I couldn't complete that restaurant request."
  }

  #details(userText: string): BookingDetails {
    const year = this.#facts.reference_year
    return mergedDetails(
      this.conversationContext,
      userText,
      typeof year === 'number' ? year : defaultReferenceYear,
    )
  }

  /** The last id mentioned anywhere the caller can see, so a spoken correction wins. */
  #reservationIdToCancel(userText: string): string | null {
    return lastReservationId(`${this.conversationContext}\n${userText}`)
  }

  #isAuthorized(reservationId: string): boolean {
    const authorized = this.#initialState.authorized_reservation_ids
    return Array.isArray(authorized) && authorized.includes(reservationId)
  }
}

/** The clarifying question for whatever a booking still lacks. */
function missingDetailsQuestion(details: BookingDetails): string {
  const noName = details.guest_name === undefined
  const noTime = details.time === undefined
  if (noName && noTime) return 'What name and time would you like for the reservation?'
  if (noName) return 'What name should I put on the reservation?'
  if (noTime) return 'What time would you like the reservation?'
  if (details.date === undefined) return 'What date would you like the reservation?'
  if (details.party_size === undefined) return 'How many guests will be joining you?'
  return 'How else can I help with your reservation?'
}
