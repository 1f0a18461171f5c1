// A remote application must be configured before GPT-Live starts: the graded initial state is the service's
// `session.ready` state, read when the session has started, and a connection failure must fail the start (an
// infrastructure error before anything was observed) instead of surfacing later as lost delegations.
//
// The architecture seat has no hook that runs between attach() and `session.start`, so the start of this one
// session object is made to wait for `ready` first. This is the whole of it: no other behaviour of the session
// changes. (When ArchitectureController gains an optional `prepare(): Promise<void>` awaited before
// `session.start`, this file goes and the connector's start() becomes that hook.)
import type { LiveSession } from '../../../live/index.ts'

export function startAfter(session: LiveSession, ready: () => Promise<unknown>): void {
  const start = session.start.bind(session)
  session.start = async (config) => {
    await ready()
    return start(config)
  }
}
