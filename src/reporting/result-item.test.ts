import { describe, expect, test } from 'vitest'
import { computeInteractionMetrics } from '../metrics/interaction.ts'
import { passingRowInput } from './reporting-fixtures.ts'
import {
  buildResultRow,
  infrastructureErrorRow,
  type ResultRowInput,
  TASK_COMPLETED_MESSAGE,
  validateResultRow,
} from './result-item.ts'
import { resolveResultStatus } from './result-status.ts'

describe('status mapping', () => {
  test('passed iff task_completed for ok-like statuses', () => {
    for (const raw of ['', 'ok', 'passed', 'incomplete']) {
      expect(resolveResultStatus(raw, true, null)).toBe('passed')
      expect(resolveResultStatus(raw, false, null)).toBe('failed')
    }
    expect(resolveResultStatus('failed', true, null)).toBe('passed')
  })
  test('error, infrastructure_error, and failed with a failure stage are infrastructure errors', () => {
    expect(resolveResultStatus('error', true, null)).toBe('infrastructure_error')
    expect(resolveResultStatus('infrastructure_error', true, null)).toBe('infrastructure_error')
    expect(resolveResultStatus('failed', true, 'response_collection')).toBe('infrastructure_error')
  })
  test('an unsupported status is a validation failure', () => {
    expect(() => resolveResultStatus('timeout', true, null)).toThrow(
      'status must be a supported result status',
    )
  })
})

describe('buildResultRow', () => {
  test('builds a valid row with count pairs as {actual, expected} and unknown audio as nulls', () => {
    const row = buildResultRow(passingRowInput())
    expect(row.status).toBe('passed')
    expect(row.metrics.task.tool_calls).toEqual({ actual: 1, expected: 1 })
    expect(row.metrics.task.turns).toEqual({ actual: 2, expected: 2 })
    expect(row.metrics.audio.response_rate).toBeNull()
    expect(row.title).toBe('Simple booking')
    expect(row.error).toBeNull()
  })
  test('unmeasured audio is the reference shape: the five metrics null, no contract-v2 fields', () => {
    const expected = {
      response_rate: null,
      response_latency_ms: null,
      interruption_rate: null,
      speaking_duration_ms: null,
      floor_hold_silence_ms: null,
    }
    expect(buildResultRow(passingRowInput({ audio: null })).metrics.audio).toEqual(expected)
    const failed = infrastructureErrorRow({
      scenario_id: 'restaurant_003',
      stage: 'connection',
      message: 'x',
    })
    expect(failed.metrics.audio).toEqual(expected)
    expect(Object.keys(failed.metrics.audio)).not.toContain('metrics_version')
  })
  test('measured audio with no opportunity keeps its policy fields and null durations', () => {
    const audio = computeInteractionMetrics({
      caller_turns: [],
      assistant_turns: [],
      delegation_intervals: [],
      observation_end_ms: 1_000,
    })
    const row = buildResultRow(passingRowInput({ audio }))
    expect(row.error).toBeNull()
    expect(row.metrics.audio).toMatchObject({
      speaking_duration_ms: null,
      floor_hold_silence_ms: null,
      metrics_version: '2.0',
      response_exclusion_reasons: {},
    })
  })
  test('a graded failure is "failed"', () => {
    expect(buildResultRow(passingRowInput({ task_completed: false })).status).toBe('failed')
  })
  test('an infrastructure row keeps its diagnostic task_completed and gets at least an unknown error', () => {
    const row = buildResultRow(passingRowInput({ raw_status: 'error' }))
    expect(row.status).toBe('infrastructure_error')
    expect(row.metrics.task.task_completed).toBe(true)
    expect(row.error).toEqual({ stage: 'unknown', message: '' })
  })
  test('an unsupported raw status becomes a result_validation row', () => {
    const row = buildResultRow(passingRowInput({ raw_status: 'bogus' as never }))
    expect(row.status).toBe('infrastructure_error')
    expect(row.error?.stage).toBe('result_validation')
    expect(row.error?.message).toContain('status must be a supported result status')
  })
  test('a failure before observation reports every count and accuracy as null', () => {
    const row = infrastructureErrorRow({
      scenario_id: 'restaurant_002',
      stage: 'input_setup',
      message: 'TTS failed',
    })
    expect(row.status).toBe('infrastructure_error')
    expect(row.metrics.task).toMatchObject({
      task_completed: false,
      tool_calls: null,
      delegations: null,
      turns: null,
      tool_accuracy: null,
      delegation_accuracy: null,
    })
    expect(row.error).toEqual({ stage: 'input_setup', message: 'TTS failed' })
  })
})

describe('validateResultRow', () => {
  test('task_completed must be a real boolean: the row becomes result_validation, artifacts kept, input untouched', () => {
    for (const bad of ['true', 0, 1, null, [], undefined]) {
      const original = structuredClone(buildResultRow(passingRowInput())) as Record<string, unknown>
      ;(original.metrics as { task: Record<string, unknown> }).task.task_completed = bad
      const snapshot = structuredClone(original)
      const row = validateResultRow(original)
      expect(row.status).toBe('infrastructure_error')
      expect(row.error).toEqual({ stage: 'result_validation', message: TASK_COMPLETED_MESSAGE })
      expect(row.metrics.task.task_completed).toBe(false)
      expect(row.artifacts.events).toBe('events/restaurant_001.jsonl')
      expect(row.scenario_id).toBe('restaurant_001')
      expect(original).toEqual(snapshot)
    }
  })
  test('a missing task_completed key is rejected too', () => {
    const row = buildResultRow(passingRowInput())
    const { task_completed: _removed, ...task } = row.metrics.task
    expect(validateResultRow({ ...row, metrics: { ...row.metrics, task } }).error?.stage).toBe(
      'result_validation',
    )
  })
  test('other schema violations name the field', () => {
    const row = buildResultRow(passingRowInput())
    const broken = { ...row, metrics: { ...row.metrics, task: { ...row.metrics.task, tool_accuracy: 1.5 } } }
    const replaced = validateResultRow(broken)
    expect(replaced.error?.stage).toBe('result_validation')
    expect(replaced.error?.message).toContain('metrics.task.tool_accuracy')
  })
  test('observability.interaction: caller_mode and caller_actions are validated as §4.1 gives them', () => {
    const row = buildResultRow(passingRowInput())
    const withInteraction = (interaction: Record<string, unknown>) =>
      validateResultRow({ ...row, observability: { ...row.observability, interaction } })
    for (const mode of ['offline_fixture', 'gpt-live', 'tts', 'recorded_audio']) {
      expect(withInteraction({ caller_mode: mode, extra: 'kept' }).observability?.interaction).toEqual({
        caller_mode: mode,
        extra: 'kept',
      })
    }
    expect(withInteraction({ caller_actions: { OPENING: 1, SPEAK: 2, STOP: 1 } }).status).toBe(row.status)
    for (const [interaction, field] of [
      [{ caller_mode: 'human' }, 'observability.interaction.caller_mode'],
      [{ caller_actions: { SHOUT: 1 } }, 'observability.interaction.caller_actions'],
      [{ caller_actions: { SPEAK: -1 } }, 'observability.interaction.caller_actions.SPEAK'],
      [{ caller_actions: { SPEAK: 1.5 } }, 'observability.interaction.caller_actions.SPEAK'],
    ] as const) {
      const replaced = withInteraction(interaction)
      expect(replaced.error?.stage).toBe('result_validation')
      expect(replaced.error?.message).toContain(field)
    }
  })
  test('semantic dimension scores must lie between 0 and 1', () => {
    const row = buildResultRow(
      passingRowInput({ semantic_quality: { score: 0.5, dimensions: { task_understanding: 2 } } }),
    )
    expect(row.error?.message).toContain('between 0 and 1')
    const outOfRange: ResultRowInput['semantic_quality'][] = [
      { score: 0.5, dimensions: { task_understanding: -0.1 } },
      { score: 1.5, dimensions: {} },
      { score: -0.5, dimensions: {} },
    ]
    for (const semantic_quality of outOfRange) {
      const invalid = buildResultRow(passingRowInput({ semantic_quality }))
      expect(invalid.error).toMatchObject({ stage: 'result_validation' })
      expect(invalid.error?.message).toContain('between 0 and 1')
    }
  })
  test('a valid row passes through unchanged', () => {
    const row = buildResultRow(passingRowInput())
    expect(validateResultRow(structuredClone(row))).toEqual(row)
  })
})
