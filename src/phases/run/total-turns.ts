// RUN's `total_turns` (reference §3.3's efficiency count, which the row's `turns` pair compares with the golden
// path): the caller's substantive turns, plus the assistant's response episodes, plus the caller's closings.
// Backchannels are not turns. A response episode is the assistant's speech after one substantive caller turn and
// before the caller's next turn, however many voiced stretches it has: "let me check" and the answer that
// follows it are one episode. Speech before the caller's first turn (an assistant-first greeting) or after a
// closing answers no request, so it is not an episode.
//
// On the reference's two published RUN results (an offline date correction and a live assistant-first booking)
// this gives the 7 they report, where adding caller turns and voiced assistant turns gives 8 and 11.
import type { CallerAction } from './offline-caller.ts'

export interface TurnUtterance {
  action: CallerAction
  startMs: number
}

const SUBSTANTIVE: ReadonlySet<CallerAction> = new Set(['OPENING', 'SPEAK', 'INTERRUPT'])

export function totalTurns(
  callerUtterances: readonly TurnUtterance[],
  assistantOnsetsMs: readonly number[],
): number {
  const turns = callerUtterances
    .filter((utterance) => utterance.action !== 'BACKCHANNEL')
    .toSorted((a, b) => a.startMs - b.startMs)
  let substantive = 0
  let closings = 0
  let episodes = 0
  turns.forEach((turn, index) => {
    if (turn.action === 'STOP') {
      closings += 1
      return
    }
    if (!SUBSTANTIVE.has(turn.action)) return
    substantive += 1
    const nextStart = turns[index + 1]?.startMs ?? Number.POSITIVE_INFINITY
    if (assistantOnsetsMs.some((onset) => onset >= turn.startMs && onset < nextStart)) episodes += 1
  })
  return substantive + episodes + closings
}
