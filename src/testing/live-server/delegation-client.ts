// Client delegation, played offline: the voice model hands the request to the application and announces
// only the delegation id (never the task text). The application answers with `session.commentary.append`
// carrying that id; the append handling (appends.ts) acknowledges it and the voice model speaks it.
import type { OutboundServerEvent, SessionIds } from './events.ts'

export class ClientDelegations {
  readonly #ids: SessionIds
  readonly #send: (event: OutboundServerEvent) => void
  readonly #known = new Set<string>()

  constructor(ids: SessionIds, send: (event: OutboundServerEvent) => void) {
    this.#ids = ids
    this.#send = send
  }

  /** Emits `session.delegation.created` (target client) at `offsetMs`; returns the delegation id. */
  start(offsetMs: number): string {
    const id = this.#ids.next('item_deleg')
    this.#known.add(id)
    this.#send({
      type: 'session.delegation.created',
      offset_ms: offsetMs,
      delegation: { id, type: 'delegation', target: 'client' },
    })
    return id
  }

  /** Appends may continue a delegation any number of times; there is no done event. */
  isKnown(id: string): boolean {
    return this.#known.has(id)
  }
}
