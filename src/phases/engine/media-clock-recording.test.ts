// A recording on the real-time media clock gives an HTTP answer taken before a frame the turns its replay gives it
// before that frame (replay-clock.ts's synchronized), so what the answer set going (a tool the tool runtime starts
// on a later turn) lands before the same frame in both. The loop here is overloaded on purpose: the frame that took
// the answer outlasts its slot, so the next frame is due at once and, without the recording's synchronisation,
// goes out without yielding, ahead of the tool (the recording then dated the tool a frame after its replay).
import { describe, expect, test } from 'vitest'
import { AnswerTurns } from '../../cassettes/recording-sync.ts'
import type { ClockedStream } from './media-clock.ts'
import { MediaClock } from './media-clock.ts'

const FRAME_MS = 20

/** Busy for `ms` of wall time: the overloaded turn. */
function overload(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {}
}

/** Two real-time frames; the first takes an HTTP answer whose tool starts a turn later, and overruns its slot. */
async function twoFrames(recording: AnswerTurns | null): Promise<string[]> {
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
      send: () => true,
      reply: () => true,
      log: { events: [] },
      settled: null,
    } as unknown as ClockedStream['session'],
    next(samples) {
      if (frames === 0) {
        recording?.answerTaken()
        setImmediate(() => order.push('tool ran'))
        overload(FRAME_MS * 2)
      }
      return new Int16Array(samples)
    },
  }
  const clock = new MediaClock({ mode: 'real_time', stepMs: FRAME_MS * 2, frameMs: FRAME_MS, recording })
  await clock.step([stream])
  await new Promise((resolve) => setImmediate(resolve))
  return order
}

describe('a recording on the real-time media clock', () => {
  test('gives an answer taken before a frame its turns before that frame goes out, even when the frame is late', async () => {
    expect(await twoFrames(new AnswerTurns())).toEqual(['frame 1', 'tool ran', 'frame 2'])
  })

  test('without it (no cassette is recorded), a late frame goes out first: the race the recording no longer has', async () => {
    expect(await twoFrames(null)).toEqual(['frame 1', 'frame 2', 'tool ran'])
  })
})
