// The voice metrics (issue 21) promoted to the row metrics a report averages and a gate judges: each reads its
// per-scenario figure from the row's `voice_metrics` extension (extensions/voice-metrics.ts). A row without the
// block (CRAWL and WALK rows, a RUN row from before it existed, an infrastructure row) and a part nothing applied to
// read as null: unknown, left out of every average, never 0.
import { EXTENSION_KEY } from './extensions/registry.ts'
import type { VoiceMetrics } from './extensions/voice-metrics.ts'
import type { ResultItem } from './result-schema.ts'
import type { RowMetric } from './row-metrics.ts'

function voiceOf(row: ResultItem): VoiceMetrics | undefined {
  return row.observability?.[EXTENSION_KEY]?.voice_metrics
}

function voice(
  metric: Omit<RowMetric, 'valueOf'>,
  read: (metrics: VoiceMetrics) => number | null,
): RowMetric {
  return {
    ...metric,
    valueOf: (row) => {
      const metrics = voiceOf(row)
      return metrics === undefined ? null : read(metrics)
    },
  }
}

export const VOICE_ROW_METRICS: readonly RowMetric[] = [
  voice(
    { name: 'delegation_first_word_ms', label: 'first word (tool turns)', better: 'lower', unit: 'ms' },
    (m) => m.delegation_latency.tool_turns.first_word_ms,
  ),
  voice(
    { name: 'delegation_acknowledgement_ms', label: 'spoken acknowledgement', better: 'lower', unit: 'ms' },
    (m) => m.delegation_latency.tool_turns.acknowledgement_ms,
  ),
  voice(
    {
      name: 'delegation_first_result_ms',
      label: 'first delegated result spoken',
      better: 'lower',
      unit: 'ms',
    },
    (m) => m.delegation_latency.tool_turns.first_result_spoken_ms,
  ),
  voice(
    {
      name: 'delegation_verified_answer_ms',
      label: 'verified answer (tool turns)',
      better: 'lower',
      unit: 'ms',
    },
    (m) => m.delegation_latency.tool_turns.verified_answer_ms,
  ),
  voice(
    { name: 'direct_first_word_ms', label: 'first word (non-tool turns)', better: 'lower', unit: 'ms' },
    (m) => m.delegation_latency.non_tool_turns.first_word_ms,
  ),
  voice(
    { name: 'greeting_latency_ms', label: 'greeting latency', better: 'lower', unit: 'ms' },
    (m) => m.delegation_latency.greeting_latency_ms,
  ),
  voice(
    { name: 'stop_time_ms', label: 'stop time after a barge-in', better: 'lower', unit: 'ms' },
    (m) => m.stop_time.mean_ms,
  ),
  // Lower is better: a voice agent that holds the floor is the common complaint; 0.5 is an even split.
  voice(
    { name: 'talk_ratio', label: 'talk ratio (assistant share)', better: 'lower', unit: 'ratio' },
    (m) => m.talk_ratio.ratio,
  ),
  voice(
    { name: 'repetition_rate', label: 'repetition rate', better: 'lower', unit: 'ratio' },
    (m) => m.repetition.rate,
  ),
  voice(
    { name: 'words_per_turn', label: 'words per assistant turn', better: 'lower', unit: 'count' },
    (m) => m.verbosity.words_per_turn,
  ),
  voice(
    { name: 'verbosity_ratio', label: 'verbosity vs expectation', better: 'lower', unit: 'ratio' },
    (m) => m.verbosity.ratio,
  ),
  voice(
    { name: 'backchannel_selectivity', label: 'backchannel selectivity', better: 'higher', unit: 'ratio' },
    (m) => m.backchannel_selectivity.selectivity,
  ),
  voice(
    { name: 'entity_errors', label: 'entity errors', better: 'lower', unit: 'count' },
    (m) => m.entity_errors.errors,
  ),
]
