// The rehearsals that time each caller line (conversation.ts) must not cost a second conversation (issue 24,
// goal 3): one rehearsal call adds line after line as it goes, instead of a fresh call per line replaying the
// plan from the start, and the plan it finds is the one the per-line rehearsals found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { bundledRunScenario, playBundled } from './conversation.test-helpers.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

/** The server, counting the sessions registered and the utterances added to running calls. */
function counting(inner: OfflineLiveServer) {
  const counts = { sessions: 0, hearings: [] as number[], added: [] as number[] }
  const wrapped: OfflineLiveServer = {
    ...inner,
    registerSession(token, script) {
      counts.sessions++
      counts.hearings.push(script.hearing.length)
      inner.registerSession(token, script)
    },
    hear(token, utterance) {
      counts.added.push(utterance.startMs)
      inner.hear(token, utterance)
    },
  }
  return { wrapped, counts }
}

describe('rehearsing the caller lines', () => {
  it('times every line of a four-line call in one rehearsal call, and finds the plan the per-line rehearsals found', async () => {
    const { wrapped, counts } = counting(server)
    const conversation = await playBundled(
      wrapped,
      await bundledRunScenario('run_001_booking_complete'),
      'responses',
    )
    // Per line, this was three rehearsals (the opening needs none) plus the observed call: four sessions.
    expect(counts.sessions).toBe(2)
    // The rehearsal started with the opening and was told each later line before it began; the observed call
    // had the whole plan from the start.
    expect(counts.hearings).toEqual([1, 4])
    expect(counts.added).toEqual([12900, 19100, 27800])
    // Pinned from the per-line rehearsals (2b83358).
    expect(conversation.plan.map((utterance) => [utterance.startMs, utterance.action])).toEqual([
      [200, 'OPENING'],
      [12900, 'SPEAK'],
      [19100, 'SPEAK'],
      [27800, 'STOP'],
    ])
    expect(conversation.call.endedAtMs).toBe(33600)
  }, 60_000)

  it('times a barge-in (decided for the very step it falls on) with a rehearsal of its own; the plan is unchanged', async () => {
    const { wrapped, counts } = counting(server)
    const conversation = await playBundled(
      wrapped,
      await bundledRunScenario('run_010_interrupted_alternative'),
      'responses',
    )
    const plan = conversation.plan.map((utterance) => [utterance.startMs, utterance.action])
    expect(plan.some(([, action]) => action === 'INTERRUPT')).toBe(true)
    // The first pass stops at the barge-in (never added ahead); a rehearsal of its own times it; a second pass
    // times the rest: three rehearsals and the observed call.
    expect(counts.sessions).toBe(4)
    expect(counts.added).toEqual([19200, 29900])
    expect(plan).toEqual(PINNED_RUN_010)
  }, 60_000)
})

/** run_010 (responses, caller first) as the per-line rehearsals planned it (2b83358). */
const PINNED_RUN_010 = [
  [200, 'OPENING'],
  [8000, 'INTERRUPT'],
  [19200, 'SPEAK'],
  [29900, 'STOP'],
]
