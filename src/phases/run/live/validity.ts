// Caller simulation validity (§4.1 `validity`, §6). The simulated caller may think with its own Responses backend;
// anything else it delegates is outside the simulation (`unsupported_caller_delegation`), a backend response that
// failed or came back incomplete means the caller lost its train of thought (`caller_backend_failed`), and
// reasoning still running when the call is over means its last decision never landed (`caller_backend_pending`).
// An invalid simulation keeps its diagnostics but its target metrics are not eligible for pass/fail.
import { z } from 'zod'
import { observeNestedEvent } from '../../../assistants/responses/delegation/nested-events.ts'
import type { ServerEvent } from '../../../live/index.ts'
import type { ObservedResponseUsage } from '../../../reporting/consumption.ts'

export const CallerSimulationValiditySchema = z.strictObject({
  scope: z.enum(['frontend_only_caller_delegation', 'caller_responses_delegation']),
  status: z.enum(['valid', 'invalid']),
  target_metrics_eligible: z.boolean(),
  reason: z
    .enum(['unsupported_caller_delegation', 'caller_backend_failed', 'caller_backend_pending'])
    .nullable(),
  unexpected_delegation_count: z.number().int().nonnegative(),
  delegation_ids: z.array(z.string()),
})
export type CallerSimulationValidity = z.infer<typeof CallerSimulationValiditySchema>

/** Watches the caller session's events for what decides validity, and collects its backend usage. */
export class CallerBackendWatch {
  readonly #backendConfigured: boolean
  readonly #delegationIds = new Set<string>()
  readonly #unexpected = new Set<string>()
  /** Caller delegations whose backend work has not reached a terminal response event. */
  readonly #pending = new Set<string>()
  #failed = false
  readonly usage: ObservedResponseUsage[] = []

  constructor(backendConfigured: boolean) {
    this.#backendConfigured = backendConfigured
  }

  observe(event: ServerEvent): void {
    if (event.type === 'session.delegation.created') {
      const { id, target } = event.delegation
      this.#delegationIds.add(id)
      if (this.#backendConfigured && target === 'responses') this.#pending.add(id)
      else this.#unexpected.add(id)
      return
    }
    if (event.type !== 'response.event') return
    const delegationId = event.delegation_id ?? null
    const nested = observeNestedEvent(event.event as Record<string, unknown>)
    if (nested.kind === 'created' && delegationId !== null) this.#pending.add(delegationId)
    if (nested.kind !== 'terminal') return
    if (delegationId !== null) this.#pending.delete(delegationId)
    if (nested.type === 'response.failed' || nested.type === 'response.incomplete') this.#failed = true
    if (nested.usage !== null) this.usage.push(nested.usage)
  }

  /** The caller's backend is still reasoning (the evidence is not current while it does). */
  get working(): boolean {
    return this.#pending.size > 0
  }

  get delegationIds(): string[] {
    return [...this.#delegationIds]
  }

  /** The verdict once the call is over (pending work then counts against it). */
  validity(): CallerSimulationValidity {
    const reason =
      this.#unexpected.size > 0
        ? 'unsupported_caller_delegation'
        : this.#failed
          ? 'caller_backend_failed'
          : this.#pending.size > 0
            ? 'caller_backend_pending'
            : null
    return {
      scope: this.#backendConfigured ? 'caller_responses_delegation' : 'frontend_only_caller_delegation',
      status: reason === null ? 'valid' : 'invalid',
      target_metrics_eligible: reason === null,
      reason,
      unexpected_delegation_count: this.#unexpected.size,
      delegation_ids: this.delegationIds,
    }
  }
}
