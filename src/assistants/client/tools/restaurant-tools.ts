// The Juniper Table application: one private instance per scenario, holding that scenario's state.
// Every rule is exact because graders compare states and outputs against scenario files written for
// the reference toolkit. On any error nothing changes and nothing is recorded.
import type { JsonObject } from '../../offline-behaviour.ts'
import { deepCopy, isJsonObject } from '../../runtime/json.ts'
import type { FunctionToolDefinition } from '../../runtime/tool-definitions.ts'
import type { ToolExecutionRecord, ToolExecutor } from '../../runtime/tool-executor.ts'
import { RestaurantToolError, requiredText, type TableRequest, tableRequest } from './arguments.ts'
import { restaurantFacts, restaurantToolDefinitions } from './resources.ts'

export interface RestaurantToolsOptions {
  /** The scenario's `application.initial_state`; default `{}`. */
  initialState?: unknown
  /** Business facts; default this copy's facts.json (with its private overrides). */
  facts?: unknown
}

const matchedOverrideKeys = ['date', 'time', 'party_size', 'seating'] as const

export class RestaurantTools implements ToolExecutor {
  readonly definitions: readonly FunctionToolDefinition[] = restaurantToolDefinitions()
  readonly #state: JsonObject
  readonly #facts: JsonObject
  readonly #executions: ToolExecutionRecord[] = []

  constructor(options: RestaurantToolsOptions = {}) {
    const initialState = options.initialState === undefined ? {} : options.initialState
    const facts = options.facts === undefined ? restaurantFacts() : options.facts
    if (!isJsonObject(initialState))
      throw new RestaurantToolError('Restaurant initial state must be a JSON object')
    if (!isJsonObject(facts)) throw new RestaurantToolError('Restaurant business facts must be a JSON object')
    this.#state = deepCopy(initialState)
    this.#facts = deepCopy(facts)
  }

  /** Completed executions (deep copies), oldest first. */
  get executions(): ToolExecutionRecord[] {
    return deepCopy(this.#executions)
  }

  snapshot(): JsonObject {
    return deepCopy(this.#state)
  }

  execute(name: string, args: unknown, callId: string | null = null): JsonObject {
    if (!isJsonObject(args)) throw new RestaurantToolError('Restaurant tool arguments must be a JSON object')
    let output: JsonObject
    if (name === 'check_availability') output = this.#checkAvailability(args)
    else if (name === 'create_reservation') output = this.#createReservation(args)
    else if (name === 'cancel_reservation') output = this.#cancelReservation(args)
    else throw new RestaurantToolError(`Unauthorized restaurant tool: ${name}`)
    this.#executions.push({ call_id: callId, name, arguments: deepCopy(args), status: 'completed', output })
    return deepCopy(output)
  }

  #checkAvailability(args: JsonObject): JsonObject {
    const request = tableRequest(args, 'check_availability')
    return { ok: true, ...request, available: this.#available(request) }
  }

  /** The first private override whose present keys all equal the request decides; else available. */
  #available(request: TableRequest): boolean {
    const overrides = this.#facts.availability_overrides ?? []
    if (!Array.isArray(overrides)) return true
    for (const override of overrides) {
      if (!isJsonObject(override)) continue
      const matches = matchedOverrideKeys.every((key) => !(key in override) || override[key] === request[key])
      if (matches) return override.available === undefined ? true : Boolean(override.available)
    }
    return true
  }

  #createReservation(args: JsonObject): JsonObject {
    const tool = 'create_reservation'
    const guest_name = requiredText(args, 'guest_name', tool)
    const request = tableRequest(args, tool)
    const reservations = this.#state.reservations ?? []
    if (!Array.isArray(reservations))
      throw new RestaurantToolError('Restaurant reservations state must be a list')
    // The id counts every entry, cancelled ones included, so ids are never reused.
    const reservation_id = `R-${String(reservations.length + 1).padStart(3, '0')}`
    const booking = { guest_name, ...request }
    reservations.push({ reservation_id, ...booking, cancelled: false })
    this.#state.reservations = reservations
    // The flat mirror of the latest booking lets expected states name fields without list indexes.
    Object.assign(this.#state, { reservation_created: true, ...booking })
    return { ok: true, reservation_created: true, reservation_id, ...booking, cancelled: false }
  }

  #cancelReservation(args: JsonObject): JsonObject {
    const reservation_id = requiredText(args, 'reservation_id', 'cancel_reservation')
    const authorized = this.#state.authorized_reservation_ids
    // Only a real list authorizes; a bare string such as "R-100" is not an authorization.
    if (!Array.isArray(authorized) || !authorized.includes(reservation_id)) {
      throw new RestaurantToolError(`Not authorized to cancel reservation ${reservation_id}`)
    }
    const reservations = this.#state.reservations ?? []
    const entry = Array.isArray(reservations)
      ? reservations.find(
          (item): item is JsonObject => isJsonObject(item) && item.reservation_id === reservation_id,
        )
      : undefined
    if (entry === undefined) throw new RestaurantToolError(`Reservation ${reservation_id} does not exist`)
    if (entry.cancelled === true)
      throw new RestaurantToolError(`Reservation ${reservation_id} is already cancelled`)
    entry.cancelled = true
    Object.assign(this.#state, { reservation_id, cancelled: true })
    return { ok: true, reservation_id, cancelled: true }
  }
}
