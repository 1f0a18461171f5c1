// Time to a verified answer (issue 13), defined once here: from the end of a caller request to the first assistant
// audio after the tool result that answers it (tool turns), or to the first assistant audio (non-tool turns), each
// kind apart, with the one definition of a tool turn (gate/latency.ts). A request's window runs from its end to
// the next request's start (or the end of observation). RUN's turn metrics and the delegation latency split
// (delegation-latency.ts) both read it.
import { isToolTurn } from '../gate/latency.ts'
import { type Interval, unionIntervals } from './intervals.ts'
import type { CallerTurn } from './response-opportunities.ts'

export interface TurnWindowWork {
  /** When each delegation started and each tool result was published, on the timeline. */
  delegation_starts_ms: readonly number[]
  tool_results_ms: readonly number[]
}

export interface VerifiedAnswer {
  request_end_ms: number
  tool_turn: boolean
  /** null when no answer came before the next request (or the end). */
  time_to_verified_answer_ms: number | null
}

export interface RequestWindow {
  request: CallerTurn
  /** The next request's start, or the end of observation. */
  end_ms: number
  delegation_starts_ms: number[]
  tool_results_ms: number[]
  tool_turn: boolean
}

/** Each caller request (sorted by start) with the delegated work published inside its window. */
export function requestWindows(
  callerTurns: readonly CallerTurn[],
  work: TurnWindowWork,
  observationEndMs: number,
): RequestWindow[] {
  const requests = callerTurns
    .filter((turn) => turn.kind === 'request')
    .sort((a, b) => a.start_ms - b.start_ms)
  return requests.map((turn, index) => {
    const windowEnd = requests[index + 1]?.start_ms ?? observationEndMs
    const inWindow = (ms: number) => ms >= turn.end_ms && ms < windowEnd
    const delegations = work.delegation_starts_ms.filter(inWindow)
    const results = work.tool_results_ms.filter(inWindow)
    return {
      request: turn,
      end_ms: windowEnd,
      delegation_starts_ms: delegations,
      tool_results_ms: results,
      tool_turn: isToolTurn({ delegations: delegations.length, tool_calls: results.length }),
    }
  })
}

export function verifiedAnswers(
  callerTurns: readonly CallerTurn[],
  assistantVoiced: readonly Interval[],
  work: TurnWindowWork,
  observationEndMs: number,
): VerifiedAnswer[] {
  const onsets = unionIntervals(assistantVoiced).map((interval) => interval.start_ms)
  return requestWindows(callerTurns, work, observationEndMs).map((window) => {
    const { request: turn, tool_results_ms: results, tool_turn: toolTurn } = window
    // A tool turn is answered by speech after its last result; speech before it (an acknowledgement) is not.
    const from = results.length > 0 ? Math.max(...results) : turn.end_ms
    const onset = onsets.find((start) => start >= from && start < window.end_ms)
    const answered = onset !== undefined && (!toolTurn || results.length > 0)
    return {
      request_end_ms: turn.end_ms,
      tool_turn: toolTurn,
      time_to_verified_answer_ms: answered ? onset - turn.end_ms : null,
    }
  })
}
