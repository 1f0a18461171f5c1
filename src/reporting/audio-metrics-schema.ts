// The row's `metrics.audio` (§4.1, §4.2 metric contract v2): the five primary metrics, and when they were measured,
// the policy and denominators behind the rates, checked to add up as the reference's counts do.

import { z } from 'zod'

const nonNegativeInt = z.number().int().nonnegative()
const rate = z.number().finite().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1')

/** `{cumulative, maximum}` in ms; the whole summary is null when there was no response opportunity (§4.2). */
export const DurationSummarySchema = z.strictObject({
  cumulative: z.number().finite().nonnegative(),
  maximum: z.number().finite().nonnegative(),
})

/** The reference's eight opportunity counts, exactly (its `response_*`, `no_response_count`, `caller_turn_count`). */
export const ResponseOpportunitiesSchema = z.strictObject({
  caller_turn_count: nonNegativeInt,
  response_eligible_count: nonNegativeInt,
  response_censored_count: nonNegativeInt,
  response_excluded_count: nonNegativeInt,
  response_late_count: nonNegativeInt,
  response_total: nonNegativeInt,
  response_count: nonNegativeInt,
  no_response_count: nonNegativeInt,
})

export const EXCLUSION_REASONS = ['backchannel', 'caller_closing', 'assistant_active_at_request_end'] as const

/** Only reasons that occurred are listed, so every count is at least 1; `{}` when nothing was excluded. */
export const ResponseExclusionReasonsSchema = z.partialRecord(
  z.enum(EXCLUSION_REASONS),
  z.number().int().min(1, 'only reasons that occurred are listed'),
)

const POLICY_FIELDS = [
  'metrics_version',
  'response_deadline_ms',
  'response_opportunities',
  'response_exclusion_reasons',
] as const

/**
 * The five primary audio metrics, plus (metric contract v2) the policy and denominators behind the rates. The
 * reference writes the four policy fields together when the metrics were measured, and none of them when nothing
 * was measured (then every metric is null).
 */
export const AudioMetricsSchema = z
  .strictObject({
    response_rate: rate.nullable(),
    response_latency_ms: z.number().finite().nonnegative().nullable(),
    interruption_rate: z.number().finite().nonnegative().nullable(),
    speaking_duration_ms: DurationSummarySchema.nullable(),
    floor_hold_silence_ms: DurationSummarySchema.nullable(),
    metrics_version: z.literal('2.0').optional(),
    response_deadline_ms: z.number().finite().positive().optional(),
    response_opportunities: ResponseOpportunitiesSchema.optional(),
    response_exclusion_reasons: ResponseExclusionReasonsSchema.optional(),
  })
  .superRefine((audio, context) => {
    const present = POLICY_FIELDS.filter((key) => audio[key] !== undefined)
    if (present.length !== 0 && present.length !== POLICY_FIELDS.length) {
      const missing = POLICY_FIELDS.filter((key) => audio[key] === undefined)
      context.addIssue({
        code: 'custom',
        path: [missing[0] ?? 'metrics_version'],
        message: `${POLICY_FIELDS.join(', ')} come together (metric contract v2); missing ${missing.join(', ')}`,
      })
    }
    const counts = audio.response_opportunities
    if (counts === undefined) return
    const excluded = Object.values(audio.response_exclusion_reasons ?? {}).reduce(
      (sum, n) => sum + (n ?? 0),
      0,
    )
    const identities: [string, number, number][] = [
      [
        'response_total = response_count + no_response_count',
        counts.response_total,
        counts.response_count + counts.no_response_count,
      ],
      [
        'response_eligible_count = response_total + response_censored_count',
        counts.response_eligible_count,
        counts.response_total + counts.response_censored_count,
      ],
      [
        'caller_turn_count = response_eligible_count + response_excluded_count',
        counts.caller_turn_count,
        counts.response_eligible_count + counts.response_excluded_count,
      ],
      [
        'response_excluded_count = the sum of response_exclusion_reasons',
        counts.response_excluded_count,
        excluded,
      ],
    ]
    for (const [identity, actual, expected] of identities) {
      if (actual !== expected) {
        context.addIssue({
          code: 'custom',
          path: ['response_opportunities'],
          message: `counts disagree: ${identity} (${actual} != ${expected})`,
        })
      }
    }
  })

export type AudioMetrics = z.infer<typeof AudioMetricsSchema>
export type DurationSummary = z.infer<typeof DurationSummarySchema>
export type ResponseOpportunities = z.infer<typeof ResponseOpportunitiesSchema>
export type ResponseExclusionReasons = z.infer<typeof ResponseExclusionReasonsSchema>
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number]
/** Audio metrics as measured (contract v2): every policy field present. */
export type MeasuredAudioMetrics = Required<AudioMetrics>
