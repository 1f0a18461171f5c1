// The voice metrics of single-turn rows (CRAWL, WALK), each on a constructed session whose right value is worked
// out by hand in the comments, from the session's speech to the promoted row metric a report and a gate read.
import { describe, expect, test } from 'vitest'
import { computeVoiceMetrics, type ScenarioExpectation } from '../../metrics/voice-metrics.ts'
import type { ToolExecution } from '../../observability/observation.ts'
import { passingRowInput } from '../../reporting/reporting-fixtures.ts'
import { buildResultRow } from '../../reporting/result-item.ts'
import { VOICE_ROW_METRICS } from '../../reporting/voice-row-metrics.ts'
import { singleTurnSpeech, singleTurnVoiceTimeline, type VoicedStretch } from './voice-timeline.ts'

const stretch = (startMs: number, endMs: number): VoicedStretch => ({ startMs, endMs })
const said = (...texts: string[]) => texts.map((text) => ({ role: 'assistant' as const, text }))

function completed(name: string, args: Record<string, unknown>, atMs: number | null): ToolExecution {
  return {
    call_id: `call_${name}`,
    name,
    arguments: args,
    status: 'completed',
    output: {},
    completed_at_ms: atMs,
  }
}

interface Session {
  caller: VoicedStretch[]
  assistant: VoicedStretch[]
  lines: { role: 'user' | 'assistant'; text: string }[]
  delegationStartsMs?: number[]
  executions?: ToolExecution[]
  endMs: number
}

const NO_EXPECTATION: ScenarioExpectation = { tags: [], required_tools: [], state: {}, initial_state: {} }

/** The promoted row metrics of a single-turn row measured on this session. */
function rowMetrics(session: Session, expectation: ScenarioExpectation = NO_EXPECTATION) {
  const speech = singleTurnSpeech({
    callerSpeech: session.caller,
    assistantSpeech: session.assistant,
    observationEndMs: session.endMs,
  })
  const voice = computeVoiceMetrics(
    singleTurnVoiceTimeline(speech, {
      lines: session.lines,
      delegationStartsMs: session.delegationStartsMs ?? [],
      toolExecutions: session.executions ?? [],
    }),
    expectation,
  )
  const row = buildResultRow(passingRowInput({ extensions: { voice_metrics: voice } }))
  return {
    voice,
    values: Object.fromEntries(VOICE_ROW_METRICS.map((metric) => [metric.name, metric.valueOf(row)])),
  }
}

describe('voice metrics of a single-turn row', () => {
  test('a tool turn: the delegation latency split, talk ratio, verbosity and an altered entity', () => {
    // The request is 200-1 200 and 1 400-2 600 (one turn, ending at 2 600). The delegation starts at 2 800, the
    // assistant says "One moment, let me check." 2 900-3 400, the tool completes at 4 800, and the answer is
    // 5 100-7 100. First word: 2 900 - 2 600 = 300; acknowledgement (first voice from 2 800 before 4 800): 300;
    // first result spoken and verified answer (first voice from 4 800): 5 100 - 2 600 = 2 500.
    // Talk: assistant 500 + 2 000 = 2 500 ms, caller 1 000 + 1 200 = 2 200 ms: 2 500 / 4 700 = 0.53191… → 0.5319.
    // Words: 5 and 6, mean 5.5; against max_words_per_turn:10 that is 0.55. Neither nearly repeats the other: 0.
    // Entities: guest_name Rivera sent as expected; date 2026-08-14 sent as 2026-08-15: altered, 1 error.
    const { values, voice } = rowMetrics(
      {
        caller: [stretch(200, 1_200), stretch(1_400, 2_600)],
        assistant: [stretch(2_900, 3_400), stretch(5_100, 7_100)],
        lines: said('One moment, let me check.', 'Your table is booked for Rivera.'),
        delegationStartsMs: [2_800],
        executions: [
          completed('create_reservation', { guest_name: 'Rivera', date: '2026-08-15', party_size: 2 }, 4_800),
        ],
        endMs: 9_000,
      },
      {
        ...NO_EXPECTATION,
        tags: ['max_words_per_turn:10'],
        required_tools: [
          {
            name: 'create_reservation',
            arguments: { guest_name: 'Rivera', date: '2026-08-14', party_size: 2 },
          },
        ],
      },
    )
    expect(values).toEqual({
      delegation_first_word_ms: 300,
      delegation_acknowledgement_ms: 300,
      delegation_first_result_ms: 2_500,
      delegation_verified_answer_ms: 2_500,
      direct_first_word_ms: null, // the only request was a tool turn
      greeting_latency_ms: null, // the caller spoke first
      stop_time_ms: null, // the caller never spoke while the assistant talked
      talk_ratio: 0.5319,
      repetition_rate: 0,
      words_per_turn: 5.5,
      verbosity_ratio: 0.55,
      backchannel_selectivity: null, // a single turn has no backchannel
      entity_errors: 1,
    })
    expect(voice.entity_errors.by_entity.map((entity) => [entity.source, entity.status])).toEqual([
      ['tools.required[0].arguments.guest_name', 'correct'],
      ['tools.required[0].arguments.date', 'altered'],
    ])
    expect(voice.stop_time).toEqual({ barge_ins: 0, while_talking: 0, mean_ms: null, max_ms: null })
  })

  test('the caller resumes over an assistant that started in a pause: stop time; a direct answer after it', () => {
    // The caller says 0-800, pauses, and goes on 1 500-2 500 (the request ends at 2 500). The assistant starts at
    // 1 000, in the pause, and talks until 3 000: the caller's speech at 1 500 began while it talked, so it kept
    // talking 3 000 - 1 500 = 1 500 ms. Its next onset after the request is 3 200: direct first word 700.
    // Talk: assistant 2 000 + 1 000 = 3 000, caller 800 + 1 000 = 1 800: 3 000 / 4 800 = 0.625. Words 7 and 4,
    // mean 5.5; no expectation tag, so no verbosity ratio; no entity expected, so no entity errors.
    const { values, voice } = rowMetrics({
      caller: [stretch(0, 800), stretch(1_500, 2_500)],
      assistant: [stretch(1_000, 3_000), stretch(3_200, 4_200)],
      lines: said('We are open from noon to ten.', 'Is there anything else?'),
      endMs: 6_000,
    })
    expect(values).toEqual({
      delegation_first_word_ms: null,
      delegation_acknowledgement_ms: null,
      delegation_first_result_ms: null,
      delegation_verified_answer_ms: null,
      direct_first_word_ms: 700,
      greeting_latency_ms: null,
      stop_time_ms: 1_500,
      talk_ratio: 0.625,
      repetition_rate: 0,
      words_per_turn: 5.5,
      verbosity_ratio: null,
      backchannel_selectivity: null,
      entity_errors: null,
    })
    expect(voice.stop_time).toEqual({ barge_ins: 1, while_talking: 1, mean_ms: 1_500, max_ms: 1_500 })
  })

  test('the assistant speaks first: greeting latency; its repeated line; an entity it never said', () => {
    // "Thanks for calling Juniper Table, how can I help?" 300-1 300 before the caller's 1 500-2 500: greeting
    // 300 - 0 = 300, and the caller's request began 200 ms after the greeting ended (no barge-in). After the
    // request it says the same line again at 2 900 (first word 400, a non-tool turn) and nothing else: 2 utterances
    // of 9 words, the second nearly repeating the first: repetition 1 / 2 = 0.5. The expected guest name Rivera
    // went to no tool and was never said: missing, 1 error.
    const greeting = 'Thanks for calling Juniper Table, how can I help?'
    const { values } = rowMetrics(
      {
        caller: [stretch(1_500, 2_500)],
        assistant: [stretch(300, 1_300), stretch(2_900, 3_900)],
        lines: said(greeting, greeting),
        endMs: 5_000,
      },
      {
        ...NO_EXPECTATION,
        required_tools: [{ name: 'create_reservation', arguments: { guest_name: 'Rivera' } }],
      },
    )
    expect(values).toMatchObject({
      greeting_latency_ms: 300,
      direct_first_word_ms: 400,
      stop_time_ms: null,
      repetition_rate: 0.5,
      words_per_turn: 9,
      entity_errors: 1,
    })
  })

  test('a tool turn answered before any result and a result never spoken: those moments are null, not 0', () => {
    // Request 0-1 000; delegation at 1 100; "Let me look that up for you." 1 200-2 000; the tool completes at
    // 3 000 with no voice after it before the end (6 000). First word 200 and acknowledgement 200; the first
    // result spoken and the verified answer are unknown. A tool result with no time (it completed after
    // collection stopped) is no result at all.
    const { values } = rowMetrics({
      caller: [stretch(0, 1_000)],
      assistant: [stretch(1_200, 2_000)],
      lines: said('Let me look that up for you.'),
      delegationStartsMs: [1_100],
      executions: [completed('check_availability', {}, 3_000), completed('check_availability', {}, null)],
      endMs: 6_000,
    })
    expect(values).toMatchObject({
      delegation_first_word_ms: 200,
      delegation_acknowledgement_ms: 200,
      delegation_first_result_ms: null,
      delegation_verified_answer_ms: null,
      direct_first_word_ms: null,
    })
  })

  test('nothing heard and nothing said: every voice metric is null', () => {
    // No caller speech (no request, so no latency), no assistant voice (no greeting, no words), nobody spoke (no
    // talk ratio), nothing expected (no entity errors).
    const { values } = rowMetrics({ caller: [], assistant: [], lines: [], endMs: 30_000 })
    expect(values).toEqual(Object.fromEntries(VOICE_ROW_METRICS.map((metric) => [metric.name, null])))
  })
})
