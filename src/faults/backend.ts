// Delegation-backend faults (issue 22): the backend's answer to a delegation fails or stalls.
// - Client delegation: the application's backend runs on our side, offline and live, so FaultyBackend wraps it:
//   a stall holds the backend's work back on the call's clock, an error makes it fail as an unreachable backend
//   would. The application's controller then does whatever it does with a failed backend.
// - Responses delegation: the service runs the backend model, so only offline, where our offline GPT-Live server
//   plays that model, can its answer fail (a `response.failed`) or stall; the server asks these hooks per
//   delegation. Live it is out of reach (the architecture's faultPlanes says so and the run refuses the rule).
// Either way the draw and the record stay on the evaluator side: the assistant meets only a failing backend.
import type {
  ApplicationBackend,
  BackendRunOptions,
  DelegationHandoff,
  EmitObservation,
} from '../assistants/client/backend/application-backend.ts'
import type { OfflineServerFaults } from '../testing/live-server/script.ts'
import { FAULT_TARGETS } from './events.ts'
import type { SessionFaults } from './session.ts'

/** Default stall when a rule gives no delay_s. */
const DEFAULT_STALL_S = 3

/** What a backend that cannot be reached throws; its message is what a real one would say. */
export class BackendUnavailableError extends Error {
  override name = 'BackendUnavailableError'
}

export class FaultyBackend implements ApplicationBackend {
  readonly #inner: ApplicationBackend
  readonly #faults: SessionFaults

  constructor(inner: ApplicationBackend, faults: SessionFaults) {
    this.#inner = inner
    this.#faults = faults
  }

  async run(handoff: DelegationHandoff, emit: EmitObservation, options?: BackendRunOptions): Promise<string> {
    const drawn = this.#faults.nextDelegation()
    if (drawn?.rule.kind === 'backend_error') {
      this.#faults.record({ kind: 'backend_error', target: FAULT_TARGETS.delegation, index: drawn.index })
      throw new BackendUnavailableError('The backend service is unavailable (503 Service Unavailable).')
    }
    if (drawn?.rule.kind === 'backend_stall') {
      const delayMs = (drawn.rule.delay_s ?? DEFAULT_STALL_S) * 1000
      this.#faults.record({
        kind: 'backend_stall',
        target: FAULT_TARGETS.delegation,
        index: drawn.index,
        delay_ms: delayMs,
      })
      await this.#faults.timers.wait(delayMs)
      options?.signal?.throwIfAborted()
    }
    return this.#inner.run(handoff, emit, options)
  }

  close(): Promise<void> {
    return this.#inner.close()
  }
}

/** The hooks the offline server calls for Responses delegation's backend model (see the file comment). */
export function delegationFaultsForServer(faults: SessionFaults): OfflineServerFaults {
  return {
    delegation(delegationId, atMs) {
      const drawn = faults.nextDelegation()
      if (drawn === null) return null
      const base = {
        target: FAULT_TARGETS.delegation,
        index: drawn.index,
        delegation_id: delegationId,
        at_ms: atMs,
      }
      if (drawn.rule.kind === 'backend_error') {
        faults.record({ kind: 'backend_error', ...base })
        return { kind: 'backend_error' }
      }
      const delayMs = (drawn.rule.delay_s ?? DEFAULT_STALL_S) * 1000
      faults.record({ kind: 'backend_stall', ...base, delay_ms: delayMs })
      return { kind: 'backend_stall', delayMs }
    },
  }
}
