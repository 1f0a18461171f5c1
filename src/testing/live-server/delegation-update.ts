// `session.update` under GPT-Live: only the Responses backend settings may change, sparsely; the delegation
// type is fixed at startup (sending `delegation: null` to a Responses session counts as changing it).

import { ERROR_CODES, type ProtocolError, protocolError } from './protocol-errors.ts'
import type { ParsedSessionUpdateConfig } from './session-config-schema.ts'
import type { ResolvedDelegation } from './session-resource.ts'

type RequestedDelegation = ParsedSessionUpdateConfig['delegation']

/** The delegation after applying `requested` to `current`, or the `immutable_field_update` error. */
export function applyDelegationUpdate(
  current: ResolvedDelegation,
  requested: RequestedDelegation,
): ResolvedDelegation | ProtocolError {
  if (requested === undefined) return current
  // null resets to client delegation, which is only "no change" for a session that already uses it.
  if (requested === null) return current.type === 'client' ? current : immutableType()
  if (requested.type !== current.type) return immutableType()
  if (requested.type === 'responses' && current.type === 'responses') {
    // Sparse update: omitted settings keep their values; a given setting replaces the old one whole.
    return {
      ...current,
      ...(requested.acknowledgement_delay_ms === undefined
        ? {}
        : { acknowledgement_delay_ms: requested.acknowledgement_delay_ms }),
      responses: { ...current.responses, ...stripUndefined(requested.responses ?? {}) },
    }
  }
  if (requested.type === 'client' && requested.acknowledgement_delay_ms !== undefined) {
    return { type: 'client', acknowledgement_delay_ms: requested.acknowledgement_delay_ms }
  }
  return current
}

function immutableType(): ProtocolError {
  return protocolError(
    ERROR_CODES.immutableFieldUpdate,
    'The delegation type cannot change after session startup.',
    'session.delegation.type',
  )
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
