// The two session hooks of a remote application (session-hooks.ts): the start waits for the service, and a
// round trip's reply waits for remote work in flight, bounded once per delegation.
import { describe, expect, it } from 'vitest'
import type { LiveSession } from '../../../live/index.ts'
import { settleAfterReplies, startAfter } from './session-hooks.ts'

/** The two methods the hooks wrap, recording their calls. */
function fakeSession() {
  const calls: string[] = []
  const session = {
    start: async () => {
      calls.push('start')
      return { type: 'session.started' }
    },
    reply: async () => {
      calls.push('reply')
      return { seq: 1 }
    },
  }
  return { session: session as unknown as LiveSession, calls }
}

function work() {
  let release: () => void = () => {}
  const state = {
    pending: 0,
    delegationIds: [] as string[],
    waits: 0,
    wait({ signal }: { signal: AbortSignal }) {
      state.waits += 1
      return new Promise<void>((resolve, reject) => {
        release = resolve
        signal.addEventListener('abort', () => reject(signal.reason), { once: true })
      })
    },
    release: () => release(),
  }
  return state
}

const sent = { eventId: 'evt_1', sentAtMs: 0, seq: 0 }

describe('startAfter', () => {
  it('starts only after ready, and not at all when ready fails', async () => {
    const { session, calls } = fakeSession()
    let ready: () => void = () => {}
    startAfter(session, () => new Promise<void>((resolve) => (ready = resolve)))
    const starting = session.start({} as never)
    await Promise.resolve()
    expect(calls).toEqual([])
    ready()
    await starting
    expect(calls).toEqual(['start'])

    const failing = fakeSession()
    startAfter(failing.session, async () => {
      throw new Error('Client assistant connection failed (X)')
    })
    await expect(failing.session.start({} as never)).rejects.toThrow('connection failed')
    expect(failing.calls).toEqual([])
  })
})

describe('settleAfterReplies', () => {
  it('answers at once with nothing pending, and after the remote work otherwise', async () => {
    const { session } = fakeSession()
    const remote = work()
    settleAfterReplies(session, remote)
    await session.reply(sent, 1_000)
    expect(remote.waits).toBe(0)
    remote.pending = 1
    remote.delegationIds.push('d1')
    let answered = false
    const replying = session.reply(sent, 1_000).then(() => {
      answered = true
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(answered).toBe(false)
    remote.release()
    await replying
    expect(answered).toBe(true)
  })

  it('gives up on a stuck delegation once, and waits again for the next delegation', async () => {
    const { session } = fakeSession()
    const remote = work()
    settleAfterReplies(session, remote, 5)
    remote.pending = 1
    remote.delegationIds.push('d1')
    await session.reply(sent, 1_000)
    await session.reply(sent, 1_000)
    expect(remote.waits).toBe(1)
    remote.delegationIds.push('d2')
    await session.reply(sent, 1_000)
    expect(remote.waits).toBe(2)
  })
})
