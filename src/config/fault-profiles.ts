// The bundled fault profiles (`execution.faults` / LIVE_EVALS_FAULTS, or a scenario's `fault_profile:<name>` tag;
// issue 22). A profile is a reproducible condition of three planes, not noise: each rule names what it hits, the
// kind of fault, how often and at which positions, and the profile's seed decides each draw:
// - tool plane: a tool call times out, errors, comes back empty, answers plausibly but wrongly, or answers late
//   (assistants/runtime/faults.ts);
// - delegation backend: the backend's answer to a delegation fails or stalls (faults/backend.ts: Responses
//   delegation's backend model offline, client delegation's application backend offline and live);
// - audio transport: the assistant's stream to the caller is cut mid-utterance or stalls (jitter), or a burst of
//   the caller's uplink is lost (faults/transport.ts).
// Whether the nth call, delegation or utterance gets a fault depends only on the seed, the rule and n, so the same
// seed gives the same faults on every run.
import { z } from 'zod'

export const TOOL_FAULT_KINDS = ['timeout', 'error', 'empty', 'wrong_data', 'slow'] as const
export const BACKEND_FAULT_KINDS = ['backend_error', 'backend_stall'] as const
export const TRANSPORT_FAULT_KINDS = ['stream_cut', 'jitter', 'uplink_loss'] as const
/** Every fault kind, each its own fault class (pass^k per class in the trials block). */
export const FAULT_KINDS = [...TOOL_FAULT_KINDS, ...BACKEND_FAULT_KINDS, ...TRANSPORT_FAULT_KINDS] as const
export type FaultKind = (typeof FAULT_KINDS)[number]
export type ToolFaultKind = (typeof TOOL_FAULT_KINDS)[number]
export type BackendFaultKind = (typeof BACKEND_FAULT_KINDS)[number]
export type TransportFaultKind = (typeof TRANSPORT_FAULT_KINDS)[number]

export const FAULT_PLANES = ['tool', 'backend', 'transport'] as const
export type FaultPlane = (typeof FAULT_PLANES)[number]

/** The plane a kind of fault belongs to. */
export function faultPlane(kind: FaultKind): FaultPlane {
  if ((TOOL_FAULT_KINDS as readonly string[]).includes(kind)) return 'tool'
  if ((BACKEND_FAULT_KINDS as readonly string[]).includes(kind)) return 'backend'
  return 'transport'
}

const ruleFields = {
  /** Probability that one matching call, delegation or utterance gets this fault, 0 to 1. */
  rate: z.number().min(0).max(1),
  /**
   * Which positions the rule may hit (0-based): the nth call of each named tool, the nth delegation, the nth
   * assistant utterance (stream_cut, jitter) or the nth caller utterance (uplink_loss). Absent: every position.
   */
  calls: z.array(z.int().nonnegative()).min(1).optional(),
}

export const ToolFaultRuleSchema = z.strictObject({
  kind: z.enum(TOOL_FAULT_KINDS),
  /** Tool names this rule applies to; `*` matches every tool. */
  tools: z.array(z.string().min(1)).min(1),
  ...ruleFields,
  /** `slow`: seconds added before the real result comes back (default 1). */
  delay_s: z.number().positive().optional(),
})

export const BackendFaultRuleSchema = z.strictObject({
  kind: z.enum(BACKEND_FAULT_KINDS),
  ...ruleFields,
  /** `backend_stall`: seconds the backend's answer is held back (default 3). */
  delay_s: z.number().positive().optional(),
})

export const StreamCutRuleSchema = z.strictObject({
  kind: z.literal('stream_cut'),
  ...ruleFields,
  /** How much of the assistant's utterance the caller hears before the stream is cut (ms of its audio). */
  after_ms: z.int().nonnegative(),
})

export const JitterRuleSchema = z.strictObject({
  kind: z.literal('jitter'),
  ...ruleFields,
  /** Where in the assistant's utterance the stream stalls (ms of its audio). */
  after_ms: z.int().nonnegative(),
  /** How long it stalls; everything after reaches the caller that much later. */
  delay_ms: z.int().positive(),
})

export const UplinkLossRuleSchema = z.strictObject({
  kind: z.literal('uplink_loss'),
  ...ruleFields,
  /** Where in the caller's utterance the burst starts (ms of its audio). */
  after_ms: z.int().nonnegative(),
  /** How long the burst lasts: that much of the caller's audio never reaches the assistant. */
  duration_ms: z.int().positive(),
})

export const FaultRuleSchema = z.discriminatedUnion('kind', [
  ToolFaultRuleSchema,
  BackendFaultRuleSchema,
  StreamCutRuleSchema,
  JitterRuleSchema,
  UplinkLossRuleSchema,
])
export type FaultRule = z.infer<typeof FaultRuleSchema>
export type ToolFaultRule = z.infer<typeof ToolFaultRuleSchema>
export type BackendFaultRule = z.infer<typeof BackendFaultRuleSchema>
export type TransportFaultRule = Extract<FaultRule, { kind: TransportFaultKind }>

export const FaultProfileSchema = z.strictObject({
  name: z.string().min(1),
  seed: z.int().nonnegative(),
  /** Tried in order for each call, delegation or utterance; the first rule of its plane whose draw hits wins. */
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
  // The first availability check answers plausibly but wrongly; a second one (a verification) answers truly.
  'wrong-data-once': {
    name: 'wrong-data-once',
    seed: 7,
    rules: [{ tools: ['check_availability'], kind: 'wrong_data', rate: 1, calls: [0] }],
  },
  // Every reservation change times out before it reaches the application.
  'tool-timeout': {
    name: 'tool-timeout',
    seed: 3,
    rules: [{ tools: RESERVATION_TOOLS, kind: 'timeout', rate: 1 }],
  },
  // Every reservation change comes back as an empty answer, without reaching the application.
  'tool-empty': {
    name: 'tool-empty',
    seed: 4,
    rules: [{ tools: RESERVATION_TOOLS, kind: 'empty', rate: 1 }],
  },
  // Availability checks answer 2 s late: longer than the dead-air limit, shorter than a voice model's wait before
  // it says where things stand.
  'tool-slow': {
    name: 'tool-slow',
    seed: 5,
    rules: [{ tools: ['check_availability'], kind: 'slow', rate: 1, delay_s: 2 }],
  },
  // The backend holds back its answer to the first delegation for 5 s.
  'delegation-stall': {
    name: 'delegation-stall',
    seed: 11,
    rules: [{ kind: 'backend_stall', rate: 1, calls: [0], delay_s: 5 }],
  },
  // The backend fails on the first delegation.
  'delegation-error': {
    name: 'delegation-error',
    seed: 12,
    rules: [{ kind: 'backend_error', rate: 1, calls: [0] }],
  },
  // The assistant's third utterance is cut after 600 ms of its audio: the caller hears the start, then nothing.
  'transport-cut': {
    name: 'transport-cut',
    seed: 13,
    rules: [{ kind: 'stream_cut', rate: 1, calls: [2], after_ms: 600 }],
  },
  // Half of the assistant's utterances stall for 700 ms after 400 ms of audio.
  'transport-jitter': {
    name: 'transport-jitter',
    seed: 14,
    rules: [{ kind: 'jitter', rate: 0.5, after_ms: 400, delay_ms: 700 }],
  },
  // 0.8 s of the caller's opening, from 1.8 s in, never reaches the assistant.
  'uplink-loss': {
    name: 'uplink-loss',
    seed: 15,
    rules: [{ kind: 'uplink_loss', rate: 1, calls: [0], after_ms: 1_800, duration_ms: 800 }],
  },
} as const satisfies Record<string, FaultProfile>

export type FaultProfileName = keyof typeof FAULT_PROFILES
export const FAULT_PROFILE_NAMES = Object.keys(FAULT_PROFILES) as [FaultProfileName, ...FaultProfileName[]]
/** `execution.faults = "none"`: no profile, even for a scenario whose tag names one (an explicit "off"). */
export const NO_FAULTS = 'none'
export const FAULT_SETTING_VALUES = [NO_FAULTS, ...FAULT_PROFILE_NAMES] as const

/** The profile named by `execution.faults`; a clear error naming the setting and the known names otherwise. */
export function faultProfile(name: string, where = 'execution.faults (LIVE_EVALS_FAULTS)'): FaultProfile {
  if (Object.hasOwn(FAULT_PROFILES, name)) return FAULT_PROFILES[name as FaultProfileName]
  throw new Error(
    `${where} names an unknown fault profile "${name}"; known profiles: ${FAULT_PROFILE_NAMES.map((known) => `"${known}"`).join(', ')}`,
  )
}

/** Checks every bundled profile against the schema (a typo in a rule would otherwise pass until it is drawn). */
export function checkBundledProfiles(): void {
  for (const profile of Object.values(FAULT_PROFILES)) FaultProfileSchema.parse(profile)
}
