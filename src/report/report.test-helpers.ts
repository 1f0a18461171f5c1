// A small run directory on disk for report tests: three rows built by the reporting module (a passed tool turn,
// a failed turn whose transcript carries markup, an infrastructure error), each passing row with a details JSON
// that satisfies its zod schema and a stereo conversation WAV whose tones sit where the transcript says.

import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SAMPLE_RATE_HZ } from '../audio/pcm.ts'
import { encodeMonoWav, encodeStereoWav } from '../audio/wav.ts'
import { resultsDocument, row } from '../gate/gate.test-helpers.ts'
import { type ScenarioDetails, ScenarioDetailsSchema } from '../phases/engine/details.ts'
import type { ScenarioModel } from './model.ts'

export const HOSTILE_TRANSCRIPT =
  '<script>window.__pwned = true</script><img src=x onerror="window.__pwned=1">'

/** Caller speaks 200–1200 ms, assistant 1600–2600 ms, in a 3 s conversation. */
export const VOICED = { caller: [200, 1_200], assistant: [1_600, 2_600], duration: 3_000 } as const

function tones(): { caller: Int16Array; assistant: Int16Array } {
  const samples = (ms: number) => Math.round((ms * SAMPLE_RATE_HZ) / 1000)
  const caller = new Int16Array(samples(VOICED.duration))
  const assistant = new Int16Array(samples(VOICED.duration))
  const fill = (channel: Int16Array, [from, to]: readonly [number, number], hz: number) => {
    for (let index = samples(from); index < samples(to); index++) {
      channel[index] = Math.round(8_000 * Math.sin((2 * Math.PI * hz * index) / SAMPLE_RATE_HZ))
    }
  }
  fill(caller, VOICED.caller, 220)
  fill(assistant, VOICED.assistant, 330)
  return { caller, assistant }
}

function details(id: string, assistantText: string, passed: boolean): ScenarioDetails {
  const initial = { reservations: [] as unknown[] }
  const final = passed ? { reservations: [{ reservation_id: 'R-001', party_size: 4 }] } : initial
  const execution = {
    call_id: 'call_1',
    name: 'create_reservation',
    arguments: { guest_name: 'Alvarez', party_size: 4 },
    status: 'completed' as const,
    output: { ok: true, reservation_id: 'R-001' },
    completed_at_ms: 1_400,
  }
  return ScenarioDetailsSchema.parse({
    schema_version: '2.0',
    example_id: id,
    session_id: `session_${id}`,
    mode: 'offline_fixture',
    assistant_mode: 'client',
    audio_source: 'synthetic',
    caller_audio: 'synthetic',
    recording: null,
    scenario_type: 'booking',
    context_mode: 'none',
    conversation_context: '',
    initial_state: initial,
    input_reference: 'Book a table for four.',
    input_projected: 'Book a table for four.',
    assistant_projected: assistantText,
    assistant_turn_transcript: [{ role: 'assistant', text: assistantText, startMs: 1_600, endMs: 2_600 }],
    post_tool_assistant_text: assistantText,
    backend_messages: [],
    delegations: passed ? [{ id: 'item_deleg_1', startMs: 1_250, settledMs: 1_450 }] : [],
    expected_delegation: 'required',
    expected_tool_calls: [],
    tool_calls: [],
    tool_executions: passed ? [execution] : [],
    final_state: final,
    observation: {
      termination_reason: 'response_completed',
      delegation_ids: passed ? ['item_deleg_1'] : [],
      requested_tool_calls: [],
      tool_executions: passed ? [execution] : [],
      initial_application_state: initial,
      final_application_state: final,
      transcript: [
        { role: 'user', text: 'Book a table for four.', start_ms: 200 },
        { role: 'assistant', text: assistantText, start_ms: 1_600 },
      ],
      post_tool_assistant_text: assistantText,
      caller_turn_count: 1,
      assistant_response_episode_count: 1,
      closing_turn_count: 0,
    },
    task_metrics: {},
    interaction_metrics: {},
    efficiency_metrics: {},
    evidence_metrics: {},
    rubric_metrics: null,
    dimension_grades: {},
    semantic_grades: {
      task_understanding: {
        status: 'scored',
        passed: true,
        score: 0.75,
        rationale: `Rationale for ${id} <b>bold?</b>`,
      },
    },
    judge_usage_events: [],
    assessment: {
      passed,
      source: 'deterministic',
      rationale: passed ? 'All required checks passed.' : 'A required check failed.',
      checks: [
        {
          id: 'application_state',
          status: passed ? 'passed' : 'failed',
          required: true,
          reason: 'The final state must match the expectation.',
          evidence: passed ? {} : { missing: ['reservations[0]'] },
        },
      ],
    },
    observability: {},
    termination_reason: 'response_completed',
    delegation_error: null,
    listener_problems: [],
  })
}

/** Writes the run into `runDir` (which must exist) and returns its scenario ids. */
export async function writeSampleRun(runDir: string): Promise<string[]> {
  const rows = [
    row({ id: 'booking_ok', title: 'Booking that works', latencyMs: 400 }),
    row({ id: 'booking_bad', title: 'Booking that fails', status: 'failed', latencyMs: 1_200, tools: 0 }),
    row({ id: 'booking_broken', title: 'Connection refused', status: 'infrastructure_error' }),
  ]
  const { caller, assistant } = tones()
  for (const [id, text, passed] of [
    ['booking_ok', 'Your table for four is booked.', true],
    ['booking_bad', HOSTILE_TRANSCRIPT, false],
  ] as const) {
    await mkdir(join(runDir, 'audio', id), { recursive: true })
    await mkdir(join(runDir, 'transcripts'), { recursive: true })
    await writeFile(join(runDir, 'audio', id, 'conversation.wav'), encodeStereoWav(caller, assistant))
    await writeFile(join(runDir, 'audio', id, 'input.wav'), encodeMonoWav(caller))
    await writeFile(join(runDir, 'audio', id, 'output.wav'), encodeMonoWav(assistant))
    await writeFile(join(runDir, 'transcripts', `${id}.json`), JSON.stringify(details(id, text, passed)))
  }
  const fixed = rows.map((item) =>
    item.status === 'infrastructure_error'
      ? item
      : {
          ...item,
          artifacts: {
            input_audio: `audio/${item.scenario_id}/input.wav`,
            output_audio: `audio/${item.scenario_id}/output.wav`,
            conversation_audio: `audio/${item.scenario_id}/conversation.wav`,
            conversation_transcript: null,
            events: null,
            details: `transcripts/${item.scenario_id}.json`,
          },
        },
  )
  await writeFile(join(runDir, 'results.json'), JSON.stringify(resultsDocument(fixed)))
  return fixed.map((item) => item.scenario_id)
}

/** A scenario section's model with nothing in it but what a test sets (no audio, no lines, no state). */
export function bareScenarioModel(overrides: Partial<ScenarioModel> = {}): ScenarioModel {
  const checks = overrides.checks ?? []
  return {
    anchor: 's-bare',
    scenario_id: 'bare',
    trial: 1,
    assistant: null,
    title: 'Bare',
    status: 'failed',
    error: null,
    rationale: null,
    tool_turn: true,
    metrics: {},
    checks,
    failed_checks: checks.filter((check) => check.status === 'failed'),
    audio: { caller: null, assistant: null, conversation: null },
    timeline: {
      duration_ms: null,
      caller: [],
      assistant: [],
      envelope: null,
      lines: [],
      delegations: [],
      tool_calls: [],
    },
    state: null,
    semantic: { score: null, dimensions: [] },
    problems: [],
    faults: null,
    expected_failure: null,
    ...overrides,
  }
}
