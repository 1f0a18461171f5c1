// A RUN-like row whose voice metrics come from a constructed call: one barge-in at 1 000 into assistant speech that
// runs until 1 000 + stopMs, and the backchannels given (answered or not), so a test knows each figure by hand.

import { computeVoiceMetrics } from '../metrics/voice-metrics.ts'
import { passingRowInput } from '../reporting/reporting-fixtures.ts'
import { buildResultRow } from '../reporting/result-item.ts'
import type { ResultItem } from '../reporting/result-schema.ts'

export function voiceRow(id: string, stopMs: number, backchannels: { answered: boolean }[] = []): ResultItem {
  // Backchannel i at 20 000 + 5 000 i (300 ms long); an answered one gets assistant voice 500 ms after it.
  const backchannelTurns = backchannels.map((_, index) => ({
    start_ms: 20_000 + 5_000 * index,
    end_ms: 20_300 + 5_000 * index,
    kind: 'backchannel' as const,
  }))
  const answers = backchannels.flatMap((backchannel, index) =>
    backchannel.answered ? [{ start_ms: 20_800 + 5_000 * index, end_ms: 21_500 + 5_000 * index }] : [],
  )
  const voice = computeVoiceMetrics(
    {
      caller_turns: [{ start_ms: 0, end_ms: 500, kind: 'request' }, ...backchannelTurns],
      caller_voiced: [],
      assistant_voiced: [{ start_ms: 600, end_ms: 1_000 + stopMs }, ...answers],
      assistant_utterances: [],
      delegation_starts_ms: [],
      tool_results_ms: [],
      barge_in_cues_ms: [1_000],
      tool_calls: [],
      call_start_ms: 0,
      observation_end_ms: 60_000,
    },
    { tags: [], required_tools: [], state: {}, initial_state: {} },
  )
  return buildResultRow(passingRowInput({ scenario_id: id, extensions: { voice_metrics: voice } }))
}
