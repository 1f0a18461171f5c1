// What a row records about the faults injected into it (issue 22): one event per injected fault, whatever its
// plane, in the order they took effect, with what the profile was and where it came from. Evaluator-side only:
// the assistant under test only ever meets what a failing backend or a bad line would give it.
//
// This shape is what `live-evals explain` and the report read (row extension `faults`, details `faults`):
//   { profile, seed, source, injected: [FaultEvent...], classes: [kind...] }
import { z } from 'zod'
import { FAULT_KINDS, FAULT_PLANES, type FaultKind, faultPlane } from '../config/fault-profiles.ts'

/** What a fault hit besides a tool's name: the backend's answer to a delegation, or one direction of the line. */
export const FAULT_TARGETS = {
  delegation: 'delegation',
  /** The assistant's audio on its way to the caller. */
  downlink: 'downlink',
  /** The caller's audio on its way to the assistant. */
  uplink: 'uplink',
} as const

export const FaultEventSchema = z.strictObject({
  kind: z.enum(FAULT_KINDS),
  plane: z.enum(FAULT_PLANES),
  /** The tool's name (tool plane), `delegation` (backend), `downlink` or `uplink` (transport). */
  target: z.string().min(1),
  /** The draw's position: the nth call of that tool, delegation, assistant utterance or caller utterance (0-based). */
  index: z.int().nonnegative(),
  /** Media-clock time (ms) the fault took effect; null when the timeline could not place it. */
  at_ms: z.number().nullable(),
  /** Tool plane: the call it hit. */
  call_id: z.string().optional(),
  /** Backend plane: the delegation whose answer failed or stalled. */
  delegation_id: z.string().optional(),
  /** slow, backend_stall, jitter: how long the answer or the audio was held back (ms). */
  delay_ms: z.number().nonnegative().optional(),
  /** uplink_loss: the burst's length; stream_cut: how much of the utterance the caller did not hear (ms). */
  duration_ms: z.number().nonnegative().optional(),
  /** wrong_data: the output paths that were altered (empty when there was nothing to alter). */
  changed: z.array(z.string()).optional(),
  /** uplink_loss: the words the assistant did not hear; stream_cut: the words the caller did not hear. */
  lost_text: z.string().optional(),
})
export type FaultEvent = z.infer<typeof FaultEventSchema>

export const FAULT_SOURCES = ['setting', 'scenario'] as const
export type FaultSource = (typeof FAULT_SOURCES)[number]

export const FaultsRecordSchema = z.strictObject({
  /** The profile the row ran under. */
  profile: z.string().min(1),
  seed: z.int().nonnegative(),
  /** `setting`: execution.faults / LIVE_EVALS_FAULTS; `scenario`: the scenario's `fault_profile:<name>` tag. */
  source: z.enum(FAULT_SOURCES),
  /** Every fault injected in this row, in the order they took effect (empty: the profile drew none here). */
  injected: z.array(FaultEventSchema),
  /** The fault classes of this row: the distinct kinds injected, in FAULT_KINDS order. */
  classes: z.array(z.enum(FAULT_KINDS)),
})
export type FaultsRecord = z.infer<typeof FaultsRecordSchema>

/** A fault event with its plane filled in from its kind. */
export function faultEvent(event: Omit<FaultEvent, 'plane'> & { kind: FaultKind }): FaultEvent {
  return { ...event, plane: faultPlane(event.kind) }
}

/** The record of one row: the events in time order (unplaced ones last, in their own order) and their classes. */
export function faultsRecord(
  profile: { name: string; seed: number },
  source: FaultSource,
  injected: readonly FaultEvent[],
): FaultsRecord {
  const placed = injected
    .map((event, order) => ({ event, order }))
    .sort(
      (a, b) =>
        (a.event.at_ms ?? Number.POSITIVE_INFINITY) - (b.event.at_ms ?? Number.POSITIVE_INFINITY) ||
        a.order - b.order,
    )
    .map(({ event }) => event)
  const kinds = new Set(placed.map((event) => event.kind))
  return {
    profile: profile.name,
    seed: profile.seed,
    source,
    injected: placed,
    classes: FAULT_KINDS.filter((kind) => kinds.has(kind)),
  }
}
