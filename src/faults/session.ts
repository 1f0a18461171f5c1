// One session's fault state (evaluator-side): the profile, its seeded draws for every plane, the timers that hold
// things back on the call's clock, and the log of what was injected outside the tool runtime (whose injections
// stay on each execution record). Every ScenarioApplication under a profile owns one, so a rehearsal's fresh
// application draws exactly what the observed call draws.
import {
  BACKEND_FAULT_KINDS,
  type BackendFaultRule,
  type FaultProfile,
  type FaultRule,
  type TransportFaultRule,
} from '../config/fault-profiles.ts'
import { type Drawn, FaultDraws } from './draws.ts'
import { type FaultEvent, type FaultSource, faultEvent } from './events.ts'
import { FaultTimers } from './timers.ts'

/** Draw keys of the non-tool targets: apart from any tool's name. */
const DRAW_KEYS = { delegation: '@delegation', downlink: '@downlink', uplink: '@uplink' } as const

const isBackendRule = (rule: FaultRule): rule is BackendFaultRule =>
  (BACKEND_FAULT_KINDS as readonly string[]).includes(rule.kind)
const isDownlinkRule = (
  rule: FaultRule,
): rule is Extract<TransportFaultRule, { kind: 'stream_cut' | 'jitter' }> =>
  rule.kind === 'stream_cut' || rule.kind === 'jitter'
const isUplinkRule = (rule: FaultRule): rule is Extract<TransportFaultRule, { kind: 'uplink_loss' }> =>
  rule.kind === 'uplink_loss'

export type RecordedFault = Omit<FaultEvent, 'plane' | 'at_ms'> & { at_ms?: number | null }

export class SessionFaults {
  readonly profile: FaultProfile
  readonly source: FaultSource
  readonly draws: FaultDraws
  readonly timers = new FaultTimers()
  readonly #events: FaultEvent[] = []
  #clock: (() => number) | null = null

  constructor(profile: FaultProfile, source: FaultSource) {
    this.profile = profile
    this.source = source
    this.draws = new FaultDraws(profile)
  }

  /** The session's media clock, for when each fault took effect (set by the driver when the session opens). */
  useClock(clock: () => number): void {
    this.#clock = clock
  }

  /** The backend's answer to the next delegation: its fault, or null. */
  nextDelegation(): Drawn<BackendFaultRule> | null {
    return this.draws.next(DRAW_KEYS.delegation, isBackendRule)
  }

  /** The next assistant utterance on its way to the caller: cut or stalled, or null. */
  nextAssistantUtterance(): Drawn<Extract<TransportFaultRule, { kind: 'stream_cut' | 'jitter' }>> | null {
    return this.draws.next(DRAW_KEYS.downlink, isDownlinkRule)
  }

  /** The next caller utterance on its way to the assistant: a burst of it lost, or null. */
  nextCallerUtterance(): Drawn<Extract<TransportFaultRule, { kind: 'uplink_loss' }>> | null {
    return this.draws.next(DRAW_KEYS.uplink, isUplinkRule)
  }

  /** Notes an injected fault; `at_ms` defaults to the session clock now (null before the session opened). */
  record(fault: RecordedFault): void {
    const at_ms = fault.at_ms === undefined ? (this.#clock?.() ?? null) : fault.at_ms
    this.#events.push(faultEvent({ ...fault, at_ms }))
  }

  /** What was injected outside the tool runtime, in the order it was noted. */
  events(): FaultEvent[] {
    return structuredClone(this.#events)
  }
}
