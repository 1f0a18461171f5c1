// A recording on the real-time media clock gives an HTTP request that ended before a frame the two turns its replay
// gives it before that frame (replay-clock.ts's synchronized), so what the end set going (a tool the tool runtime
// starts on a later turn) lands before the same frame in both. The loop here is overloaded on purpose: the frame
// during which the request ended outlasts its slot, so the next frame is due at once and, without the recording's
// synchronisation, goes out without yielding, ahead of the tool (the recording then dated the tool a frame after
// its replay).
import { describe, expect, test } from 'vitest'
import { RequestEndTurns } from '../../cassettes/request-end-turns.ts'
import type { ClockedStream } from './media-clock.ts'
import { MediaClock } from './media-clock.ts'

const FRAME_MS = 20

/** Busy for `ms` of wall time: the overloaded turn. */
function overload(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {}
}

/** Runs `then` two turns of the event loop from now: a tool started a turn after its answer was parsed. */
function twoTurnsLater(then: () => void): void {
  setImmediate(() => setImmediate(then))
}

/**
 * Two real-time frames; during the first a request ends (`ended`, which may end another one later) and the frame
 * overruns its slot. Returns what happened, in order, until a turn after the second frame.
 */
async function twoFrames(
  recording: RequestEndTurns | null,
  ended: (order: string[]) => void,
): Promise<string[]> {
  const order: string[] = []
  let frames = 0
  const stream: ClockedStream = {
    label: 'assistant',
    session: {
      appendAudio: () => {
        frames += 1
        order.push(`frame ${frames}`)
        return true
      },
    } as unknown as ClockedStream['session'],
    next(samples) {
      if (frames === 0) {
        recording?.requestEnded()
        ended(order)
        overload(FRAME_MS * 1.5)
      }
      return new Int16Array(samples)
    },
  }
  const clock = new MediaClock({ mode: 'real_time', stepMs: FRAME_MS * 2, frameMs: FRAME_MS, recording })
  await clock.step([stream])
  await new Promise((resolve) => twoTurnsLater(() => resolve(undefined)))
  return order
}

const toolTwoTurnsLater = (order: string[]) => twoTurnsLater(() => order.push('tool ran'))

describe('a recording on the real-time media clock', () => {
  test('gives a request that ended before a frame two turns before that frame goes out, even when the frame is late', async () => {
    expect(await twoFrames(new RequestEndTurns(), toolTwoTurnsLater)).toEqual([
      'frame 1',
      'tool ran',
      'frame 2',
    ])
  })

  test('a request that ends during those turns gets two of its own before the frame', async () => {
    const recording = new RequestEndTurns()
    const chained = (order: string[]) =>
      twoTurnsLater(() => {
        order.push('backend round ran')
        recording.requestEnded()
        toolTwoTurnsLater(order)
      })
    expect(await twoFrames(recording, chained)).toEqual([
      'frame 1',
      'backend round ran',
      'tool ran',
      'frame 2',
    ])
  })

  test('without it (no cassette is recorded), a late frame goes out first: the race the recording no longer has', async () => {
    expect(await twoFrames(null, toolTwoTurnsLater)).toEqual(['frame 1', 'frame 2', 'tool ran'])
  })
})
