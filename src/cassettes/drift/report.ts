// The drift report (`live-evals drift`): per phase, which scenarios were recorded again, the metric drift against
// their recordings and the protocol drift of what the service sent; one outcome for the whole run. It is written as
// drift.json and summarised in Markdown (markdown.ts), the way the gate reports.
import type { Phase } from '../../config/index.ts'
import type { MetricDrift } from './metric-drift.ts'
import type { ProtocolFinding } from './protocol-drift.ts'

export const DRIFT_REPORT_VERSION = '1.0'

export interface PhaseDrift {
  phase: Phase
  /** The cassettes recorded again (ids), from the recordings folder. */
  cassettes: string[]
  recordings: string
  /** The new recordings' folder. */
  rerecorded: string
  /** The run folders: the recordings re-graded, and the new live run. */
  runs: { recorded: string[]; now: string[] }
  metrics: MetricDrift | null
  /**
   * What the new recordings received that the offline server does not model; null when nothing was checked (the
   * phase was not compared, or none of its new recordings could be read): unknown, never "no drift".
   */
  protocol: ProtocolFinding[] | null
  /** The new recordings (cassette ids) that could not be read, so their traffic was not checked. */
  protocol_unread: string[]
  /** Why the phase could not be compared (a run that wrote no results); null when it was. */
  incomplete: string | null
}

export interface DriftReport {
  version: typeof DRIFT_REPORT_VERSION
  created_at: string
  phases: PhaseDrift[]
  /** `no_drift`, `drift` (metrics or protocol), or `incomplete` (a phase could not be compared). */
  outcome: 'no_drift' | 'drift' | 'incomplete'
}

export function driftOutcome(phases: readonly PhaseDrift[]): DriftReport['outcome'] {
  if (phases.some((phase) => phase.incomplete !== null)) return 'incomplete'
  const drifted = phases.some((phase) => phase.metrics?.drifted === true || (phase.protocol?.length ?? 0) > 0)
  return drifted ? 'drift' : 'no_drift'
}
