// The bundled fault profiles (`execution.faults` / LIVE_EVALS_FAULTS, issue 22): each names the tools it hits, the
// kind of fault, how often and the seed, so a profile is a reproducible condition of the tool plane, not noise. The
// runtime (assistants/runtime/faults.ts) draws each call's fault from the seed, the tool and the call's position,
// so the same seed gives the same faults on every run.
import { z } from 'zod'

export const FAULT_KINDS = ['timeout', 'error', 'empty', 'wrong_data', 'slow'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export const FaultRuleSchema = z.strictObject({
  /** Tool names this rule applies to; `*` matches every tool. */
  tools: z.array(z.string().min(1)).min(1),
  kind: z.enum(FAULT_KINDS),
  /** Probability that one call of a matching tool gets this fault, 0 to 1. */
  rate: z.number().min(0).max(1),
  /** For `slow`: seconds added before the real result comes back. */
  delay_s: z.number().positive().optional(),
})
export type FaultRule = z.infer<typeof FaultRuleSchema>

export const FaultProfileSchema = z.strictObject({
  name: z.string().min(1),
  seed: z.int().nonnegative(),
  /** Tried in order for each call; the first rule whose draw hits decides the call's fault. */
  rules: z.array(FaultRuleSchema).min(1),
})
export type FaultProfile = z.infer<typeof FaultProfileSchema>

const RESERVATION_TOOLS = ['create_reservation', 'cancel_reservation']

export const FAULT_PROFILES = {
  // A flaky reservation backend: mutations sometimes time out or error, reads sometimes come back empty or slow.
  'backend-flaky': {
    name: 'backend-flaky',
    seed: 22,
    rules: [
      { tools: RESERVATION_TOOLS, kind: 'timeout', rate: 0.2 },
      { tools: RESERVATION_TOOLS, kind: 'error', rate: 0.2 },
      { tools: ['check_availability'], kind: 'empty', rate: 0.2 },
      { tools: ['check_availability'], kind: 'slow', rate: 0.2, delay_s: 2 },
    ],
  },
  // Every reservation change fails: the assistant must never confirm one.
  'backend-down': {
    name: 'backend-down',
    seed: 1,
    rules: [{ tools: RESERVATION_TOOLS, kind: 'error', rate: 1 }],
  },
  // Reads answer plausibly but wrongly: what a verification call is for.
  'backend-wrong-data': {
    name: 'backend-wrong-data',
    seed: 7,
    rules: [{ tools: ['check_availability'], kind: 'wrong_data', rate: 1 }],
  },
} as const satisfies Record<string, FaultProfile>

export type FaultProfileName = keyof typeof FAULT_PROFILES
export const FAULT_PROFILE_NAMES = Object.keys(FAULT_PROFILES) as [FaultProfileName, ...FaultProfileName[]]

/** The profile named by `execution.faults`; a clear error naming the setting and the known names otherwise. */
export function faultProfile(name: string): FaultProfile {
  if (Object.hasOwn(FAULT_PROFILES, name)) return FAULT_PROFILES[name as FaultProfileName]
  throw new Error(
    `execution.faults (LIVE_EVALS_FAULTS) names an unknown fault profile "${name}"; known profiles: ${FAULT_PROFILE_NAMES.map((known) => `"${known}"`).join(', ')}`,
  )
}
