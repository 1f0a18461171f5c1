// Delegation latency, split (issue 21): for each caller request, from the end of the request to
//   - the assistant's first word: its first voice onset in the request's window;
//   - the spoken acknowledgement (tool turns): its first onset at or after the first delegation started and before
//     the first tool result (the "one moment" while the work runs); null when it said nothing in that span;
//   - the first delegated result spoken (tool turns): its first onset at or after the first tool result;
//   - the verified answer: metrics/verified-answer.ts, the existing definition, reused.
// Tool and non-tool turns are summarised apart (one definition of a tool turn: gate/latency.ts). A non-tool turn has
// no acknowledgement and no delegated result: its first word is its answer. The greeting of an assistant-first
// opening (the assistant's voice before any caller speech) is measured apart, from the start of the call.
import type { DelegationLatency } from '../reporting/extensions/voice-metrics.ts'
import { type Interval, unionIntervals } from './intervals.ts'
import type { CallerTurn } from './response-opportunities.ts'
import { requestWindows, type TurnWindowWork, verifiedAnswers } from './verified-answer.ts'

export interface RequestLatency {
  tool_turn: boolean
  first_word_ms: number | null
  acknowledgement_ms: number | null
  first_result_spoken_ms: number | null
  verified_answer_ms: number | null
}

export interface DelegationLatencyInput {
  caller_turns: readonly CallerTurn[]
  assistant_voiced: readonly Interval[]
  work: TurnWindowWork
  observation_end_ms: number
  /** Where the call starts on the timeline (the greeting is measured from it). */
  call_start_ms: number
}

function firstOnset(onsets: readonly number[], from: number, before: number): number | null {
  return onsets.find((start) => start >= from && start < before) ?? null
}

export function requestLatencies(input: DelegationLatencyInput): RequestLatency[] {
  const onsets = unionIntervals(input.assistant_voiced).map((interval) => interval.start_ms)
  const windows = requestWindows(input.caller_turns, input.work, input.observation_end_ms)
  const verified = verifiedAnswers(
    input.caller_turns,
    input.assistant_voiced,
    input.work,
    input.observation_end_ms,
  )
  return windows.map((window, index) => {
    const end = window.request.end_ms
    const since = (onset: number | null) => (onset === null ? null : onset - end)
    const firstWord = since(firstOnset(onsets, end, window.end_ms))
    const verifiedMs = verified[index]?.time_to_verified_answer_ms ?? null
    if (!window.tool_turn) {
      return {
        tool_turn: false,
        first_word_ms: firstWord,
        acknowledgement_ms: null,
        first_result_spoken_ms: null,
        verified_answer_ms: verifiedMs,
      }
    }
    const firstResult = window.tool_results_ms.length === 0 ? null : Math.min(...window.tool_results_ms)
    const firstDelegation =
      window.delegation_starts_ms.length === 0 ? null : Math.min(...window.delegation_starts_ms)
    const acknowledgement =
      firstDelegation === null
        ? null
        : since(firstOnset(onsets, firstDelegation, firstResult ?? window.end_ms))
    return {
      tool_turn: true,
      first_word_ms: firstWord,
      acknowledgement_ms: acknowledgement,
      first_result_spoken_ms:
        firstResult === null ? null : since(firstOnset(onsets, firstResult, window.end_ms)),
      verified_answer_ms: verifiedMs,
    }
  })
}

/** Mean to the millisecond's thousandth; null over nothing. */
export function meanOrNull(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null)
  if (known.length === 0) return null
  return Math.round((known.reduce((sum, value) => sum + value, 0) / known.length) * 1000) / 1000
}

/** The assistant's first voice before any caller speech, from the call's start; null when the caller spoke first. */
export function greetingLatencyMs(input: DelegationLatencyInput): number | null {
  const first = unionIntervals(input.assistant_voiced)[0]
  if (first === undefined) return null
  const callerFirst = Math.min(...input.caller_turns.map((turn) => turn.start_ms))
  return first.start_ms < callerFirst ? first.start_ms - input.call_start_ms : null
}

export function delegationLatency(input: DelegationLatencyInput): DelegationLatency {
  const requests = requestLatencies(input)
  const tool = requests.filter((request) => request.tool_turn)
  const direct = requests.filter((request) => !request.tool_turn)
  const meanOf = (list: readonly RequestLatency[], key: keyof Omit<RequestLatency, 'tool_turn'>) =>
    meanOrNull(list.map((request) => request[key]))
  return {
    tool_turns: {
      count: tool.length,
      first_word_ms: meanOf(tool, 'first_word_ms'),
      acknowledgement_ms: meanOf(tool, 'acknowledgement_ms'),
      first_result_spoken_ms: meanOf(tool, 'first_result_spoken_ms'),
      verified_answer_ms: meanOf(tool, 'verified_answer_ms'),
    },
    non_tool_turns: {
      count: direct.length,
      first_word_ms: meanOf(direct, 'first_word_ms'),
      verified_answer_ms: meanOf(direct, 'verified_answer_ms'),
    },
    greeting_latency_ms: greetingLatencyMs(input),
  }
}
