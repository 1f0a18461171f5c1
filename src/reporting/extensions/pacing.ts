// Row extension `pacing`: the harness's own timing error in this row's call. Real time, the media clock sends a
// 20 ms frame on every slot of an absolute schedule (audio/pacing.ts); a busy event loop sends it late, and that
// lateness lands in every latency the row reports (the assistant heard the caller later than the timeline says).
// So a real-time row records how late its own frames went out (p50/p99/max over all of them) and, when the p99
// is above `execution.pacing_warning_ms`, a warning on its latency metrics: the reader can then tell a slow agent
// from a busy harness.
//
// On the virtual clock the value is null: frames have no wall-clock slot to be late for (each step is sent
// whole and the sessions are synchronised by round trips), so there is no pacing error to measure, and 0 would
// claim a perfect one. A replayed row (src/cassettes) reports its recording's: its latencies are the recording's.
// A row whose call failed (an infrastructure error before the row was graded) has no key.

import { z } from 'zod'
import { percentile } from '../statistics.ts'
import { defineExtensionFeature } from './define.ts'

/** The latency metrics a late frame shifts (the assistant heard the caller, or the caller the assistant, later). */
export const PACED_LATENCY_METRICS = [
  'metrics.audio.response_latency_ms',
  'metrics.audio.floor_hold_silence_ms',
  'observability.live_evals.run_turns.yield_latency_ms',
  'observability.live_evals.run_turns.time_to_verified_answer_ms',
] as const

export const PacingErrorSchema = z.strictObject({
  /** Frames sent on the real-time schedule in this row's call. */
  frames: z.number().int().nonnegative(),
  /** Lateness of the row's own frames against their slots; null when no frame was sent. */
  p50_ms: z.number().nonnegative().nullable(),
  p99_ms: z.number().nonnegative().nullable(),
  max_ms: z.number().nonnegative().nullable(),
  /** The run's `execution.pacing_warning_ms`: a p99 above it puts the warning below. */
  warning_threshold_ms: z.number().positive(),
  /** Set when p99 is above the threshold: the latency metrics it names include that much harness error. */
  warning: z
    .strictObject({ message: z.string().min(1), metrics: z.array(z.string().min(1)).min(1) })
    .nullable(),
})
export type PacingError = z.infer<typeof PacingErrorSchema>

export const pacingExtension = defineExtensionFeature({
  name: 'pacing',
  scope: 'row',
  version: '1.0',
  summary:
    "real-time rows: p50/p99/max lateness of the row's own 20 ms frames, with a warning on the latency metrics above execution.pacing_warning_ms; null on the virtual clock (a replay reports its recording's)",
  schema: PacingErrorSchema.nullable(),
})

const rounded = (ms: number | null) => (ms === null ? null : Math.round(ms * 100) / 100)

/**
 * The pacing error of one call from its frames' lateness (ms); null for the virtual clock (lateness null).
 */
export function pacingErrorOf(lateness: readonly number[] | null, thresholdMs: number): PacingError | null {
  if (lateness === null) return null
  const sorted = [...lateness].sort((a, b) => a - b)
  const p99 = rounded(percentile(sorted, 99))
  const late = p99 !== null && p99 > thresholdMs
  return {
    frames: sorted.length,
    p50_ms: rounded(percentile(sorted, 50)),
    p99_ms: p99,
    max_ms: rounded(sorted.at(-1) ?? null),
    warning_threshold_ms: thresholdMs,
    warning: late
      ? {
          message:
            `the harness sent its audio frames late (p99 ${p99} ms, above the ${thresholdMs} ms threshold): ` +
            'the latency metrics of this row include up to that much of the harness’s own timing error ' +
            '(a busy machine or event loop), not only the assistant’s',
          metrics: [...PACED_LATENCY_METRICS],
        }
      : null,
  }
}
