// A single-turn session (CRAWL, WALK) as the metrics read it: who spoke when (the interaction metrics) and the call
// timeline of the voice metrics (metrics/voice-metrics.ts), the same shape RUN builds for a whole call.
// A single turn holds one caller request, so some voice metrics can only be null there: backchannel selectivity (the
// request is the caller's only turn), the greeting unless the assistant spoke before the caller, and stop time
// unless the caller's speech resumed over an assistant that had started talking in a pause of the request.
import type { Interval } from '../../metrics/intervals.ts'
import type { CallerTurn } from '../../metrics/response-opportunities.ts'
import { bargeInOnsetsMs } from '../../metrics/stop-time.ts'
import type { CallTimeline } from '../../metrics/voice-metrics.ts'
import type { ToolExecution } from '../../observability/observation.ts'

/** A voiced stretch as the session timeline gives it. */
export interface VoicedStretch {
  startMs: number
  endMs: number
}

export interface SingleTurnSpeech {
  /** The caller's voiced segments, in order. */
  caller_voiced: Interval[]
  assistant_voiced: Interval[]
  /** The request, from the caller's first speech to its last; none when the caller was never heard. */
  caller_turns: CallerTurn[]
  observation_end_ms: number
}

const toInterval = (stretch: VoicedStretch): Interval => ({
  start_ms: stretch.startMs,
  end_ms: stretch.endMs,
})

export function singleTurnSpeech(input: {
  /** As known at the source (what was synthesised, a recording's clean signal), else the caller channel's energy. */
  callerSpeech: readonly VoicedStretch[]
  assistantSpeech: readonly VoicedStretch[]
  observationEndMs: number
}): SingleTurnSpeech {
  const caller = input.callerSpeech.map(toInterval)
  const first = caller[0]
  const last = caller.at(-1)
  return {
    caller_voiced: caller,
    assistant_voiced: input.assistantSpeech.map(toInterval),
    caller_turns:
      first === undefined || last === undefined
        ? []
        : [{ start_ms: first.start_ms, end_ms: last.end_ms, kind: 'request' }],
    observation_end_ms: input.observationEndMs,
  }
}

export function singleTurnVoiceTimeline(
  speech: SingleTurnSpeech,
  session: {
    lines: readonly { role: 'user' | 'assistant'; text: string }[]
    delegationStartsMs: readonly number[]
    toolExecutions: readonly ToolExecution[]
  },
): CallTimeline {
  const segments = speech.caller_voiced.map((interval): CallerTurn => ({ ...interval, kind: 'request' }))
  return {
    caller_turns: speech.caller_turns,
    caller_voiced: speech.caller_voiced,
    assistant_voiced: speech.assistant_voiced,
    assistant_utterances: session.lines.filter((line) => line.role === 'assistant').map((line) => line.text),
    delegation_starts_ms: session.delegationStartsMs,
    tool_results_ms: session.toolExecutions.flatMap((execution) =>
      execution.status === 'completed' && execution.completed_at_ms !== null
        ? [execution.completed_at_ms]
        : [],
    ),
    barge_in_cues_ms: bargeInOnsetsMs(segments, speech.assistant_voiced),
    tool_calls: session.toolExecutions.map((execution) => ({
      name: execution.name,
      arguments: execution.arguments,
    })),
    // The session starts with the caller's audio stream: the greeting, if any, is timed from 0.
    call_start_ms: 0,
    observation_end_ms: speech.observation_end_ms,
  }
}
