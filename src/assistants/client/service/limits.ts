// The limits one client-delegation service enforces (contract §6). Names and defaults are the contract's;
// durations are in seconds as there. An embedder passes any subset, and the whole object is validated before
// the service starts, so a typo or a zero cannot silently switch a limit off. The last two are ours, not the
// contract's: they bound the sockets that have not become a session (pending-connections.ts).
import { z } from 'zod'

const count = z.number().int().positive()
/** z.number() refuses Infinity and NaN, so every duration is finite. */
const seconds = z.number().positive()

export const serviceLimitsSchema = z.strictObject({
  /** Concurrent connections per service; one more gets HTTP 503 before the upgrade. */
  max_connections: count,
  /** Delegations running at once on one connection. */
  max_pending_delegations: count,
  /** Delegations accepted on one connection, completed ones included. */
  max_delegations: count,
  /** One WebSocket frame, either direction, in bytes. */
  max_message_bytes: count,
  /** Every inbound text frame of a connection summed, in UTF-8 bytes (the configure included). */
  max_session_bytes: count,
  /** Inbound frames per connection (the configure included). */
  max_events: count,
  /** From connection start until `session.configure` must have arrived. */
  configure_timeout: seconds,
  /** Absolute, from connection start; activity does not extend it. */
  session_timeout: seconds,
  /** One delegation from handoff to completion, outbound sends included. */
  delegation_timeout: seconds,
  /** Sending the error envelope and closing the delegation controller, each. */
  cleanup_timeout: seconds,
  /** From TCP connect until the upgrade is accepted (or a plain request arrives); then the socket is closed. */
  upgrade_timeout: seconds,
  /** Sockets connected without an accepted upgrade; beyond it the oldest of them is closed. */
  max_unauthenticated_connections: count,
})
export type ServiceLimits = z.infer<typeof serviceLimitsSchema>

export const DEFAULT_SERVICE_LIMITS: Readonly<ServiceLimits> = Object.freeze({
  max_connections: 8,
  max_pending_delegations: 4,
  max_delegations: 64,
  max_message_bytes: 256 * 1024,
  max_session_bytes: 8 * 1024 * 1024,
  max_events: 20_000,
  configure_timeout: 10,
  session_timeout: 600,
  delegation_timeout: 60,
  cleanup_timeout: 5,
  upgrade_timeout: 10,
  max_unauthenticated_connections: 256,
})

export const LIMITS_MESSAGE = 'Client service limits must be finite positive numbers; counts must be integers'

export class ServiceLimitsError extends Error {
  override name = 'ServiceLimitsError'
}

/** The defaults with `overrides` applied, validated; the error names every offending limit. */
export function resolveServiceLimits(overrides: unknown = {}): ServiceLimits {
  const merged =
    typeof overrides === 'object' && overrides !== null && !Array.isArray(overrides)
      ? { ...DEFAULT_SERVICE_LIMITS, ...overrides }
      : overrides
  const parsed = serviceLimitsSchema.safeParse(merged)
  if (parsed.success) return parsed.data
  const fields = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.join('.') || '(limits object)'],
  )
  throw new ServiceLimitsError(`${LIMITS_MESSAGE} (check ${[...new Set(fields)].join(', ')})`)
}
