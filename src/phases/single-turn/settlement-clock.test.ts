// A delegation's result is dated on the service's clock, where the transcript of the answer is: the voice model
// may begin the answer at the very instant it takes the result, and everything later on our side (the
// acknowledgement's arrival, the step at which the controller is seen idle) would leave that answer out of the
// post-tool text. Found by the dress rehearsal: in real time, under load, correct bookings failed
// grounded_relay_order with an empty post-tool text.
import { describe, expect, it } from 'vitest'
import type { ReceivedLiveEvent, SentLiveEvent } from '../../live/index.ts'
import { SessionTimeline } from '../../observability/timeline.ts'
import { CommentaryPublications, ContinuationPositions } from './collect.ts'
import type { ScenarioSession } from './scenario-session.ts'

/** Just what the collectors listen to: a session's sent and received events, the timeline and the tracker. */
function fakeSession(delegations: object = { architecture: 'client', records: {} }) {
  const sent = new Set<(sent: SentLiveEvent) => void>()
  const received = new Set<(received: ReceivedLiveEvent) => void>()
  const timeline = new SessionTimeline({ mode: 'real_time', wallClock: () => 0 })
  const settled: Array<[string, number]> = []
  const session = {
    timeline,
    tracker: { delegationSettled: (id: string, atMs: number) => settled.push([id, atMs]) },
    assistant: {
      session: {
        onSent: (listener: (sent: SentLiveEvent) => void) => {
          sent.add(listener)
          return () => sent.delete(listener)
        },
        subscribe: (listener: (received: ReceivedLiveEvent) => void) => {
          received.add(listener)
          return () => received.delete(listener)
        },
      },
      delegations: () => delegations,
    },
  } as unknown as ScenarioSession
  return {
    session,
    timeline,
    settled,
    send: (event: object, sentAtMs: number) => {
      for (const listener of sent) listener({ event, sentAtMs, seq: 0 } as unknown as SentLiveEvent)
    },
    receive: (event: object, receivedAtMs: number) => {
      for (const listener of received) listener({ event, receivedAtMs } as unknown as ReceivedLiveEvent)
    },
  }
}

describe('delegation settlement on the service clock', () => {
  it('dates client commentary at its acknowledgement end_ms, not at its later arrival', () => {
    const fake = fakeSession()
    fake.timeline.delegationCreated('deleg_1', 1_000)
    const publications = new CommentaryPublications(fake.session)
    fake.send(
      { type: 'session.commentary.append', event_id: 'evt_1', delegation_id: 'deleg_1', content: 'Done.' },
      2_400,
    )
    fake.receive(
      { type: 'session.commentary.appended', client_event_id: 'evt_1', start_ms: 2_380, end_ms: 2_390 },
      2_460,
    )
    publications.stop()
    expect(fake.timeline.delegations[0]?.settledMs).toBe(2_390)
    expect(fake.settled).toEqual([['deleg_1', 2_390]])
  })

  it('places a Responses publication where its response.create went out on the audio clock', () => {
    const fake = fakeSession({
      architecture: 'responses',
      records: {
        publications: [{ delegationId: 'deleg_1', outcome: 'published', atMs: 2_450, callIds: [] }],
      },
    })
    const positions = new ContinuationPositions(fake.session)
    // 2.4 s of caller audio went out before the publication; our wall clock already read 2.45 s.
    fake.timeline.callerAudioSent(new Int16Array(24 * 2_400))
    fake.send({ type: 'response.create' }, 2_450)
    positions.stop()
    expect(positions.publishedAt(fake.session.assistant, 'deleg_1')).toBe(2_400)
    expect(positions.publishedAt(fake.session.assistant, 'deleg_2')).toBeNull()
  })
})
