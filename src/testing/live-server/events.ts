// Outbound events: the SDK's GPT-Live server event types, minus the `event_id` that the sender stamps on.
// Ids are deterministic per session (a counter), so identical input yields identical bytes.
import type { ServerEvent } from 'openai/resources/live/live'

type WithoutEventId<T> = T extends { event_id: string } ? Omit<T, 'event_id'> : T

/** A server event as built by the session; `event_id` is added on send (never on output audio deltas). */
export type OutboundServerEvent = WithoutEventId<ServerEvent>

/** Stamps `event_id`s and serializes. Output audio deltas carry no `event_id`, as on the service. */
export class EventStamper {
  readonly #prefix: string
  #next = 1

  constructor(prefix: string) {
    this.#prefix = prefix
  }

  stamp(event: OutboundServerEvent): ServerEvent {
    if (event.type === 'session.output_audio.delta') return event
    // Spread `event` after the id would let a caller override it; the id goes last on purpose.
    return { ...event, event_id: `event_${this.#prefix}_${this.#next++}` } as ServerEvent
  }
}

/** Deterministic ids for the objects a session creates (delegations, responses, calls, items). */
export class SessionIds {
  readonly #counters = new Map<string, number>()

  next(prefix: 'item_deleg' | 'resp' | 'call' | 'fc' | 'msg'): string {
    const value = (this.#counters.get(prefix) ?? 0) + 1
    this.#counters.set(prefix, value)
    return `${prefix}_${value}`
  }
}
