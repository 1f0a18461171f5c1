import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { computeVoiceMetrics } from '../metrics/voice-metrics.ts'
import { passingRowInput } from './reporting-fixtures.ts'
import { buildResultRow, infrastructureErrorRow } from './result-item.ts'
import { ROW_METRICS, summarizeMetrics } from './row-metrics.ts'
import { VOICE_ROW_METRICS } from './voice-row-metrics.ts'

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

// A call: request 0-1 000, delegation at 1 100, "one moment" 1 300-1 800, result at 3 000, answer 3 200-5 200;
// a barge-in at 4 000 (stop time 1 200); the caller's backchannel 6 000-6 300 unanswered. Caller voice 0-1 000 and
// 4 000-4 500 and 6 000-6 300: 1 800 ms; assistant 500 + 2 000 = 2 500 ms: talk ratio 2 500 / 4 300 = 0.5814.
const voice = computeVoiceMetrics(
  {
    caller_turns: [
      { start_ms: 0, end_ms: 1_000, kind: 'request' },
      { start_ms: 6_000, end_ms: 6_300, kind: 'backchannel' },
    ],
    caller_voiced: [
      { start_ms: 0, end_ms: 1_000 },
      { start_ms: 4_000, end_ms: 4_500 },
      { start_ms: 6_000, end_ms: 6_300 },
    ],
    assistant_voiced: [
      { start_ms: 1_300, end_ms: 1_800 },
      { start_ms: 3_200, end_ms: 5_200 },
    ],
    assistant_utterances: ['One moment.', 'Your table for two is booked for Rivera.'],
    delegation_starts_ms: [1_100],
    tool_results_ms: [3_000],
    barge_in_cues_ms: [4_000],
    tool_calls: [{ name: 'create_reservation', arguments: { guest_name: 'Rivera' } }],
    call_start_ms: 0,
    observation_end_ms: 10_000,
  },
  {
    tags: ['max_words_per_turn:5'],
    required_tools: [{ name: 'create_reservation', arguments: { guest_name: 'Rivera' } }],
    state: {},
    initial_state: {},
  },
)

describe('voice metrics on the row', () => {
  test('each promoted metric reads its per-scenario figure from the voice_metrics extension', () => {
    const row = buildResultRow(passingRowInput({ extensions: { voice_metrics: voice } }))
    const values = Object.fromEntries(VOICE_ROW_METRICS.map((metric) => [metric.name, metric.valueOf(row)]))
    expect(values).toEqual({
      delegation_first_word_ms: 300,
      delegation_acknowledgement_ms: 300,
      delegation_first_result_ms: 2_200,
      delegation_verified_answer_ms: 2_200,
      direct_first_word_ms: null, // no non-tool turn
      greeting_latency_ms: null, // the caller spoke first
      stop_time_ms: 1_200,
      talk_ratio: 0.5814,
      repetition_rate: 0, // one compared utterance (8 words), no repeat
      words_per_turn: (2 + 8) / 2,
      verbosity_ratio: 5 / 5,
      backchannel_selectivity: 1,
      entity_errors: 0,
    })
  })
  test('a row without the extension (an infrastructure row, a row from before it) reads null for every voice metric', () => {
    const rows = [
      buildResultRow(passingRowInput()),
      infrastructureErrorRow({ scenario_id: 'x', stage: 'connection', message: 'refused' }),
    ]
    for (const row of rows) {
      expect(VOICE_ROW_METRICS.map((metric) => metric.valueOf(row))).toEqual(
        VOICE_ROW_METRICS.map(() => null),
      )
    }
    const summary = summarizeMetrics(rows).find((metric) => metric.metric === 'stop_time_ms')
    expect(summary).toMatchObject({ n: 0, mean: null })
  })
  test("the README's metric table documents every row metric with its unit", () => {
    const table = README.slice(README.indexOf('### Metrics'), README.indexOf('## The semantic judge'))
    expect(table.length).toBeGreaterThan(0)
    for (const metric of ROW_METRICS) {
      expect(table).toContain(`| \`${metric.name}\` | ${metric.unit} | ${metric.better} |`)
    }
    // and documents nothing else: a metric renamed or removed leaves no stale row behind.
    const documented = [...table.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((match) => match[1])
    expect(documented).toEqual(ROW_METRICS.map((metric) => metric.name))
  })
})
