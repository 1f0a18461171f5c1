// The departure watch on constructed recordings: turns divided at the recorded caller's onsets, the same meaning
// by the near-duplicate measure (a rephrasing of a few words is the same, another answer is not, a turn still being
// spoken is judged on what it said so far), the caller silenced from the first onset after a differing turn, and
// played out once its last line was played and the recorded call is over.
import { describe, expect, test } from 'vitest'
import type { TappedSession } from '../../live/index.ts'
import type { Cassette, CassetteFrame } from '../schema.ts'
import { DepartureWatch } from './departure-watch.ts'
import { ONSET_GAP_MS, recordedTurns, sameMeaning } from './turns.ts'

const frame = (seq: number, at_ms: number, event: Record<string, unknown>): CassetteFrame => ({
  seq,
  direction: 'received',
  at_ms,
  event: event as CassetteFrame['event'],
})
const audio = (seq: number, at: number) => frame(seq, at, { type: 'session.output_audio.delta' })
const caption = (seq: number, at: number, delta: string) =>
  frame(seq, at, { type: 'session.output_transcript.delta', delta })

/**
 * Caller lines at 0 ms and 5000 ms; the assistant answers between them and after the second. The caller hears that
 * last answer at 6500 ms, and the recorded call is over (its session closed) at 8000 ms.
 */
function cassette(): Cassette {
  return {
    header: {} as Cassette['header'],
    http: [],
    tool_executions: null,
    pacing: null,
    sessions: [
      {
        label: 'caller',
        frames: [
          audio(1, 0),
          audio(2, 100),
          audio(3, 200),
          audio(8, 5_000),
          audio(9, 5_100),
          frame(11, 6_500, { type: 'session.input_transcript.delta', delta: 'Goodbye!' }),
          frame(12, 8_000, { type: 'session.closed' }),
        ],
      },
      {
        label: 'assistant',
        frames: [
          caption(4, 2_000, 'Your table'),
          caption(5, 2_200, ' is booked.'),
          caption(10, 6_000, 'Goodbye!'),
        ],
      },
    ],
  }
}

/** A live assistant session whose captions the test delivers. */
function assistantSession(): { session: TappedSession; say(text: string): void } {
  let listener: ((received: { event: Record<string, unknown> }) => void) | null = null
  const session = {
    subscribe(next: (received: { event: Record<string, unknown> }) => void) {
      listener = next
      return () => {}
    },
    onSent: () => () => {},
  } as unknown as TappedSession
  return {
    session,
    say: (text) => listener?.({ event: { type: 'session.output_transcript.delta', delta: text } }),
  }
}

describe('the recorded turns and the same meaning', () => {
  test('turns are what the assistant said between the caller’s onsets', () => {
    expect(recordedTurns(cassette())).toEqual({
      turns: ['', 'Your table is booked.', 'Goodbye!'],
      onsets: [0, 5_000],
      callerEnd: { lastLineMs: 5_100, endMs: 8_000 },
    })
    expect(ONSET_GAP_MS).toBeLessThan(5_000 - 200)
  })

  test('a near-duplicate is the same, another answer is not, a turn under way is judged so far', () => {
    expect(
      sameMeaning('Your table for two is booked for Friday.', 'Your table for two is booked on Friday.'),
    ).toBe(true)
    expect(sameMeaning('Your table is booked.', 'Sorry, the booking system is down.')).toBe(false)
    expect(sameMeaning('Your table for two is booked for Friday at seven.', 'Your table for two', true)).toBe(
      true,
    )
    expect(sameMeaning('Your table for two is booked for Friday at seven.', 'Your table for two')).toBe(false)
    expect(sameMeaning('', '')).toBe(true)
  })
})

describe('the departure watch', () => {
  test('the same turns: every caller frame played, no departure', () => {
    const watch = new DepartureWatch(recordedTurns(cassette()))
    const assistant = assistantSession()
    watch.listen(assistant.session)
    expect(watch.callerFrame({ type: 'session.output_audio.delta' }, 0)).not.toBeNull()
    assistant.say('Your table is booked.')
    expect(watch.callerFrame({ type: 'session.output_audio.delta' }, 5_000)).not.toBeNull()
    assistant.say('Goodbye!')
    expect(watch.finish()).toBeNull()
    expect(watch.turns).toEqual(['', 'Your table is booked.', 'Goodbye!'])
  })

  test('a differing turn: named with both texts, the caller silenced from its next onset on', () => {
    const watch = new DepartureWatch(recordedTurns(cassette()))
    const assistant = assistantSession()
    watch.listen(assistant.session)
    watch.callerFrame({ type: 'session.output_audio.delta' }, 0)
    assistant.say('Sorry, the booking system is down.')
    expect(watch.callerDone(5_000)).toBeNull()
    expect(watch.callerFrame({ type: 'session.output_audio.delta' }, 5_000)).toBeNull()
    // What the live call loop asks to end the call once the assistant is done (call-loop.ts).
    expect(watch.callerDone(5_000)).toBe('replayed_caller_silenced')
    expect(watch.callerFrame({ type: 'session.output_transcript.delta', delta: 'Thanks' }, 5_050)).toBeNull()
    // Frames that are not the caller's speech still reach the session.
    expect(watch.callerFrame({ type: 'session.usage.updated' }, 5_100)).toEqual({
      type: 'session.usage.updated',
    })
    expect(watch.finish()).toEqual({
      turn: 1,
      recorded: 'Your table is booked.',
      now: 'Sorry, the booking system is down.',
      caller_silenced_at_ms: 5_000,
    })
  })

  test('only the last turn differs: named, nothing silenced', () => {
    const watch = new DepartureWatch(recordedTurns(cassette()))
    watch.said(1, 'Your table is booked.')
    watch.said(2, 'See you soon, have a lovely evening.')
    expect(watch.finish()).toMatchObject({ turn: 2, caller_silenced_at_ms: null })
    expect(watch.callerDone(8_000)).toBeNull()
  })

  test('the caller plays out once its last line was played and the recorded call is over, not before', () => {
    const watch = new DepartureWatch(recordedTurns(cassette()))
    const assistant = assistantSession()
    watch.listen(assistant.session)
    watch.callerFrame({ type: 'session.output_audio.delta' }, 0)
    // Mid-recording: its second line is still to come, whatever the time.
    expect(watch.callerDone(8_000)).toBeNull()
    assistant.say('Your table is booked.')
    watch.callerFrame({ type: 'session.output_audio.delta' }, 5_000)
    expect(watch.callerDone(8_000)).toBeNull()
    watch.callerFrame({ type: 'session.output_audio.delta' }, 5_100)
    assistant.say('Goodbye!')
    // Its last line played, but the recorded call went on to 8 s: an ending the recording had may still come.
    expect(watch.callerDone(5_100)).toBeNull()
    watch.callerFrame({ type: 'session.input_transcript.delta', delta: 'Goodbye!' }, 6_500)
    expect(watch.callerDone(7_980)).toBeNull()
    expect(watch.callerDone(8_000)).toBe('replayed_caller_played_out')
    expect(watch.finish()).toBeNull()
  })

  test('a departure is a silenced caller even after the recording’s end; a caller-less or silent recording never plays out', () => {
    const departed = new DepartureWatch(recordedTurns(cassette()))
    departed.callerFrame({ type: 'session.output_audio.delta' }, 0)
    expect(departed.callerFrame({ type: 'session.output_audio.delta' }, 5_000)).toBeNull()
    departed.callerFrame({ type: 'session.output_audio.delta' }, 5_100)
    expect(departed.callerDone(8_000)).toBe('replayed_caller_silenced')
    const walk = {
      ...cassette(),
      sessions: cassette().sessions.filter((session) => session.label !== 'caller'),
    }
    expect(recordedTurns(walk).callerEnd).toBeNull()
    expect(new DepartureWatch(recordedTurns(walk)).callerDone(Number.MAX_SAFE_INTEGER)).toBeNull()
    // A caller session that never spoke has no line to run out of: unknown, not a last line at 0 ms.
    const silent = {
      ...cassette(),
      sessions: cassette().sessions.map((session) =>
        session.label === 'caller'
          ? { ...session, frames: session.frames.filter((frame) => frame.event.type === 'session.closed') }
          : session,
      ),
    }
    expect(recordedTurns(silent).callerEnd).toBeNull()
    const silentWatch = new DepartureWatch(recordedTurns(silent))
    silentWatch.callerFrame({ type: 'session.closed' }, 8_000)
    expect(silentWatch.callerDone(Number.MAX_SAFE_INTEGER)).toBeNull()
  })
})
