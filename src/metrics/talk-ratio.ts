// Talk ratio (issue 21): the assistant's share of the call's speaking time, assistant / (assistant + caller), from
// the voiced intervals of each side (overlap counts for both: each was speaking). 0.5 is an even split; a voice
// agent that explains too much sits high. Null when nobody spoke (nothing to divide).
import type { TalkRatio } from '../reporting/extensions/voice-metrics.ts'
import { type Interval, totalDuration } from './intervals.ts'
import { roundToFourPlaces } from './rounding.ts'

export function talkRatio(
  assistantVoiced: readonly Interval[],
  callerVoiced: readonly Interval[],
): TalkRatio {
  const assistant = totalDuration(assistantVoiced)
  const caller = totalDuration(callerVoiced)
  const total = assistant + caller
  return {
    assistant_ms: assistant,
    caller_ms: caller,
    ratio: total === 0 ? null : roundToFourPlaces(assistant / total),
  }
}
