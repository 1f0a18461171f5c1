// The caller simulation's validity (reference §4.1 `validity`, §6 "Simulator validity"). A simulation that is not
// valid did not test the assistant: its row is an infrastructure_error at stage caller_simulation, its
// diagnostics are kept and no semantic judge is asked.
import { type CallerSimulationValidity, CallerSimulationValiditySchema } from './live/validity.ts'

// One schema for both drivers: the live driver decides validity from the caller's events (live/validity.ts).
export const SimulationValiditySchema = CallerSimulationValiditySchema
export type SimulationValidity = CallerSimulationValidity

/** Offline the caller has no session of its own, so it cannot delegate: the simulation is valid by construction. */
export const OFFLINE_CALLER_VALIDITY: SimulationValidity = Object.freeze({
  scope: 'frontend_only_caller_delegation',
  status: 'valid',
  target_metrics_eligible: true,
  reason: null,
  unexpected_delegation_count: 0,
  delegation_ids: [],
}) as SimulationValidity

/** The row error of an invalid simulation, worded as the reference words it. */
export function invalidSimulationMessage(validity: SimulationValidity): string {
  return `Caller simulation is invalid (${validity.reason ?? 'unknown'}); target metrics are diagnostic only.`
}
