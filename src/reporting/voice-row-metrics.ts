// The voice metrics (issue 21) promoted to the row metrics a report averages and a gate judges: each reads its
// per-scenario figure from the row's `voice_metrics` extension (extensions/voice-metrics.ts), which RUN, CRAWL and
// WALK rows carry. A row without the block (an infrastructure row, a row from before it existed) and a part nothing
// applied to read as null: unknown, left out of every average, never 0.
import { EXTENSION_KEY } from './extensions/registry.ts'
import type { VoiceMetrics } from './extensions/voice-metrics.ts'
import type { ResultItem } from './result-schema.ts'
import type { MetricUnit, RowMetric } from './row-metrics.ts'

type Reading = (metrics: VoiceMetrics) => number | null
type ToolTurnMoment = Exclude<keyof VoiceMetrics['delegation_latency']['tool_turns'], 'count'>

/** The delegation latency split of tool turns: one moment of `delegation_latency.tool_turns`. */
const toolTurn =
  (moment: ToolTurnMoment): Reading =>
  (m) =>
    m.delegation_latency.tool_turns[moment]

/**
 * name → [label, unit, where the figure is]. Lower is better for all but backchannel selectivity; for the talk
 * ratio too, since a voice agent that holds the floor is the common complaint (0.5 is an even split).
 */
const VOICE_METRIC_TABLE: Readonly<Record<string, readonly [string, MetricUnit, Reading]>> = {
  delegation_first_word_ms: ['first word (tool turns)', 'ms', toolTurn('first_word_ms')],
  delegation_acknowledgement_ms: ['spoken acknowledgement', 'ms', toolTurn('acknowledgement_ms')],
  delegation_first_result_ms: ['first delegated result spoken', 'ms', toolTurn('first_result_spoken_ms')],
  delegation_verified_answer_ms: ['verified answer (tool turns)', 'ms', toolTurn('verified_answer_ms')],
  direct_first_word_ms: [
    'first word (non-tool turns)',
    'ms',
    (m) => m.delegation_latency.non_tool_turns.first_word_ms,
  ],
  greeting_latency_ms: ['greeting latency', 'ms', (m) => m.delegation_latency.greeting_latency_ms],
  stop_time_ms: ['stop time after a barge-in', 'ms', (m) => m.stop_time.mean_ms],
  talk_ratio: ['talk ratio (assistant share)', 'ratio', (m) => m.talk_ratio.ratio],
  repetition_rate: ['repetition rate', 'ratio', (m) => m.repetition.rate],
  words_per_turn: ['words per assistant turn', 'count', (m) => m.verbosity.words_per_turn],
  verbosity_ratio: ['verbosity vs expectation', 'ratio', (m) => m.verbosity.ratio],
  backchannel_selectivity: ['backchannel selectivity', 'ratio', (m) => m.backchannel_selectivity.selectivity],
  entity_errors: ['entity errors', 'count', (m) => m.entity_errors.errors],
}

const HIGHER_IS_BETTER: ReadonlySet<string> = new Set(['backchannel_selectivity'])

function voiceOf(row: ResultItem): VoiceMetrics | undefined {
  return row.observability?.[EXTENSION_KEY]?.voice_metrics
}

export const VOICE_ROW_METRICS: readonly RowMetric[] = Object.entries(VOICE_METRIC_TABLE).map(
  ([name, [label, unit, read]]) => ({
    name,
    label,
    better: HIGHER_IS_BETTER.has(name) ? 'higher' : 'lower',
    unit,
    valueOf: (row: ResultItem) => {
      const metrics = voiceOf(row)
      return metrics === undefined ? null : read(metrics)
    },
  }),
)
