// The voice metrics of one call (issue 21), each defined in its own file here, computed together from one call's
// timeline and the scenario's evaluator-only expectation: a RUN conversation (phases/run/observe.ts) or a
// single-turn session (phases/single-turn/voice-timeline.ts). The row carries them in the `voice_metrics`
// extension (reporting/extensions/voice-metrics.ts); reporting/voice-row-metrics.ts promotes their figures.
import type { VoiceMetrics } from '../reporting/extensions/voice-metrics.ts'
import type { Scenario } from '../scenarios/scenario.ts'
import { backchannelSelectivity } from './backchannel-selectivity.ts'
import { delegationLatency } from './delegation-latency.ts'
import { type EntityExpectation, entityErrors, type SentToolCall } from './entity-errors.ts'
import type { Interval } from './intervals.ts'
import { repetition } from './repetition.ts'
import type { CallerTurn } from './response-opportunities.ts'
import { stopTime } from './stop-time.ts'
import { talkRatio } from './talk-ratio.ts'
import { verbosity } from './verbosity.ts'

export type { VoiceMetrics }

export interface CallTimeline {
  /** The caller's turns (requests, backchannels, closings) as the interaction metrics see them. */
  caller_turns: readonly CallerTurn[]
  /** When the caller's voice was active (talk ratio). */
  caller_voiced: readonly Interval[]
  assistant_voiced: readonly Interval[]
  /** What the assistant said, one utterance per transcript line, in order. */
  assistant_utterances: readonly string[]
  delegation_starts_ms: readonly number[]
  tool_results_ms: readonly number[]
  /** Where every caller barge-in began (scheduled and found after the fact). */
  barge_in_cues_ms: readonly number[]
  tool_calls: readonly SentToolCall[]
  call_start_ms: number
  observation_end_ms: number
}

export interface ScenarioExpectation extends EntityExpectation {
  tags: readonly string[]
}

/** What the voice metrics expect of a scenario: evaluator-only, read after the call, never shown to the assistant. */
export function voiceExpectationOf(
  scenario: Pick<Scenario, 'tags' | 'expected' | 'application'>,
): ScenarioExpectation {
  return {
    tags: scenario.tags,
    required_tools: scenario.expected.tools.required,
    state: scenario.expected.state,
    initial_state: scenario.application.initial_state,
  }
}

export function computeVoiceMetrics(call: CallTimeline, expected: ScenarioExpectation): VoiceMetrics {
  return {
    delegation_latency: delegationLatency({
      caller_turns: call.caller_turns,
      assistant_voiced: call.assistant_voiced,
      work: { delegation_starts_ms: call.delegation_starts_ms, tool_results_ms: call.tool_results_ms },
      observation_end_ms: call.observation_end_ms,
      call_start_ms: call.call_start_ms,
    }),
    stop_time: stopTime(call.barge_in_cues_ms, call.assistant_voiced),
    talk_ratio: talkRatio(call.assistant_voiced, call.caller_voiced),
    repetition: repetition(call.assistant_utterances),
    verbosity: verbosity(call.assistant_utterances, expected.tags),
    backchannel_selectivity: backchannelSelectivity(
      call.caller_turns,
      call.assistant_voiced,
      call.tool_results_ms,
    ),
    entity_errors: entityErrors(expected, call.tool_calls, call.assistant_utterances),
  }
}
