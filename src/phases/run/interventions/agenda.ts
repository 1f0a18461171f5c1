// The scripted caller's pending interventions while the conversation driver builds its plan. After each
// media-clock step of a rehearsal the driver asks which intervention falls due; the caller never talks over
// itself, so one whose cue came while it was saying another line (or before its opening) is given up and
// recorded as not said, with the reason. Whatever is still pending when the plan ends (after the goodbye, or
// at the maximum duration) was never reached.
import type { Interval } from '../../../metrics/intervals.ts'
import type { PlannedUtterance } from '../offline-caller.ts'
import type { Intervention } from './schema.ts'
import { triggerCueMs } from './triggers.ts'

/** Why an intervention was never said. */
export type UnsaidReason = 'before_opening' | 'caller_speaking' | 'call_ended'

export interface DueIntervention {
  intervention: Intervention
  cueMs: number
}

/** End of each scripted line of the plan (interventions carry an id; scripted lines do not). */
export function scriptedLineEnds(plan: readonly PlannedUtterance[]): number[] {
  return plan
    .filter((utterance) => utterance.interventionId === undefined)
    .map((utterance) => utterance.endMs)
}

export class InterventionAgenda {
  readonly #stepMs: number
  #pending: Intervention[]
  readonly #unsaid = new Map<string, UnsaidReason>()

  constructor(interventions: readonly Intervention[], stepMs: number) {
    this.#pending = [...interventions]
    this.#stepMs = stepMs
  }

  get hasPending(): boolean {
    return this.#pending.length > 0
  }

  /**
   * The intervention with the earliest cue at or before `nowMs`, once the caller has opened and is silent
   * (`nowMs` at or after the end of the plan's last utterance); ties go to the file's order. `heard` is the
   * assistant's voice as the caller heard it up to `nowMs`.
   */
  due(heard: readonly Interval[], plan: readonly PlannedUtterance[], nowMs: number): DueIntervention | null {
    const opening = plan[0]
    const freeFromMs = plan.at(-1)?.endMs
    if (opening === undefined || freeFromMs === undefined || nowMs < freeFromMs) return null
    const view = { scriptedLineEndsMs: scriptedLineEnds(plan) }
    let first: DueIntervention | null = null
    for (const intervention of this.#pending) {
      const cueMs = triggerCueMs(intervention.trigger, heard, view, nowMs, this.#stepMs)
      if (cueMs === null || cueMs > nowMs) continue
      if (cueMs < freeFromMs) {
        this.#giveUp(intervention, cueMs < opening.startMs ? 'before_opening' : 'caller_speaking')
        continue
      }
      if (first === null || cueMs < first.cueMs) first = { intervention, cueMs }
    }
    return first
  }

  /** The driver put it in the plan at its cue. */
  said(id: string): void {
    this.#pending = this.#pending.filter((intervention) => intervention.id !== id)
  }

  /** The plan is complete: what is still pending was never reached. */
  endPlan(): void {
    for (const intervention of [...this.#pending]) this.#giveUp(intervention, 'call_ended')
  }

  get unsaid(): ReadonlyMap<string, UnsaidReason> {
    return this.#unsaid
  }

  #giveUp(intervention: Intervention, reason: UnsaidReason): void {
    this.#unsaid.set(intervention.id, reason)
    this.said(intervention.id)
  }
}
