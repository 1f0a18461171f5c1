// Fault injection for tests of the client: each fault in the plan fires once, either after the N-th server
// event was sent or when the received-audio clock reaches a point.
import type { ResolvedFaultPlan } from './script.ts'
import type { AudioClockTimeline } from './timeline.ts'

export interface FaultActions {
  /** Drop the connection with no close frame and no `session.closed`. */
  disconnect: () => void
  sendMalformed: (payload: string) => void
  sendError: (error: { type: string; code: string; message: string }) => void
  serverClose: (reason: 'expired' | 'connection_lost' | 'content' | 'remote_hangup') => void
}

interface Armed {
  afterEvents: number | undefined
  atAudioMs: number | undefined
  fire: () => void
  fired: boolean
}

export class FaultInjector {
  readonly #armed: Armed[] = []

  constructor(plan: ResolvedFaultPlan | undefined, actions: FaultActions) {
    if (plan === undefined) return
    const arm = (
      trigger: { afterEvents?: number | undefined; atAudioMs?: number | undefined },
      fire: () => void,
    ) =>
      this.#armed.push({ afterEvents: trigger.afterEvents, atAudioMs: trigger.atAudioMs, fire, fired: false })
    const { disconnect, malformedFrame, errorEvent, serverClose } = plan
    if (malformedFrame) arm(malformedFrame, () => actions.sendMalformed(malformedFrame.payload))
    if (errorEvent) {
      arm(errorEvent, () =>
        actions.sendError({ type: errorEvent.type, code: errorEvent.code, message: errorEvent.message }),
      )
    }
    if (serverClose) arm(serverClose, () => actions.serverClose(serverClose.reason))
    // Disconnect last: when several faults share a trigger, the others still reach the client first.
    if (disconnect) arm(disconnect, () => actions.disconnect())
  }

  /** Schedules the audio-clock faults; call once the session has started. */
  armAudioClock(timeline: AudioClockTimeline): void {
    for (const armed of this.#armed) {
      if (armed.atAudioMs !== undefined)
        timeline.schedule(armed.atAudioMs, 'listening', () => this.#fire(armed))
    }
  }

  /** Call after each server event (or raw frame) was sent, with the running count. */
  afterEventSent(sentCount: number): void {
    for (const armed of this.#armed) {
      if (armed.afterEvents === sentCount) this.#fire(armed)
    }
  }

  #fire(armed: Armed): void {
    if (armed.fired) return
    armed.fired = true
    armed.fire()
  }
}
