// Two places where a remote application needs the session to wait for it, and the architecture seat has no
// hook yet. Each wraps one method of this one session object and changes nothing else about it.
//
// 1. Before `session.start`: the remote application must be configured first. The graded initial state is the
//    service's `session.ready` state, read once the session has started, and a connection failure must fail the
//    start (an infrastructure error before anything was observed), not surface later as lost delegations.
//
// 2. After each round trip (`session.reply`): the offline virtual clock makes round trips after every step and
//    then moves on; in-process work reacts within those ticks, a remote service answers over its own socket a
//    few milliseconds later. Without waiting, the clock would run on while the service works and the same run
//    would place the answer at a different audio position each time (measured: 0 to 21.6 s of floor-hold
//    silence for one scenario across two runs), close to the response timeout under load. So a reply resolves
//    only once the remote work in flight has finished (or failed): remote work takes no virtual time, exactly as
//    in-process work. Live runs never make round trips, so their real latency stays what it is.
//
// When ArchitectureController gains `prepare(): Promise<void>` (awaited before `session.start`) and the virtual
// clock asks the controller to settle after a round trip, this file goes away.
import type { LiveSession } from '../../../live/index.ts'

export function startAfter(session: LiveSession, ready: () => Promise<unknown>): void {
  const start = session.start.bind(session)
  session.start = async (config) => {
    await ready()
    return start(config)
  }
}

/** How long one reply may wait for remote work before the clock moves on without it. */
export const SETTLE_BOUND_MS = 10_000

export interface RemoteWork {
  /** Resolves (or rejects) when nothing is pending; the signal ends only this wait. */
  wait(options: { signal: AbortSignal }): Promise<void>
  readonly pending: number
  /** Grows with every delegation seen: a new one is worth waiting for again. */
  readonly delegationIds: readonly string[]
}

export function settleAfterReplies(session: LiveSession, work: RemoteWork, boundMs = SETTLE_BOUND_MS): void {
  const reply = session.reply.bind(session)
  // The delegation count at which a wait ran out: a stuck service is waited for once per delegation, not once
  // per round trip (which would stall the whole conversation).
  let gaveUpAt: number | null = null
  session.reply = async (sent, timeoutMs) => {
    const answer = await reply(sent, timeoutMs)
    if (work.pending === 0 || gaveUpAt === work.delegationIds.length) return answer
    const bound = AbortSignal.timeout(boundMs)
    await work.wait({ signal: bound }).catch(() => {
      if (bound.aborted) gaveUpAt = work.delegationIds.length
    })
    return answer
  }
}
