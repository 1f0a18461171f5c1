// results.json documents in the shapes the reference toolkit writes (§4.1), built here for the reader's tests.
// The values are ours; the shapes are the reference's: artifact keys a phase does not produce are left out, an
// unmeasured row's audio has only the five metrics, exclusion reasons list only reasons that occurred, and
// backend usage carries the modality counts and per-model entries.

/** A RUN row as the reference writes it: no input/output audio artifacts, measured audio, text tokens. */
export function referenceRunRow(scenarioId = 'bistro_move_booking'): Record<string, unknown> {
  return {
    scenario_id: scenarioId,
    status: 'passed',
    metrics: {
      task: {
        task_completed: true,
        semantic_quality: { score: null, dimensions: {} },
        tool_accuracy: 1.0,
        tool_calls: { actual: 1, expected: 1 },
        delegation_accuracy: 1.0,
        delegations: { actual: 1, expected: 1 },
        turns: { actual: 5, expected: 5 },
      },
      audio: {
        response_rate: 0.5,
        response_latency_ms: 812.5,
        interruption_rate: 0.0,
        speaking_duration_ms: { cumulative: 5120, maximum: 2040 },
        floor_hold_silence_ms: { cumulative: 1460, maximum: 1460 },
        metrics_version: '2.0',
        response_deadline_ms: 5000,
        response_opportunities: {
          caller_turn_count: 3,
          response_eligible_count: 2,
          response_censored_count: 0,
          response_excluded_count: 1,
          response_late_count: 1,
          response_total: 2,
          response_count: 1,
          no_response_count: 1,
        },
        response_exclusion_reasons: { caller_closing: 1 },
      },
      consumption: {
        frontend: { audio_duration_ms: 12400 },
        backend: {
          total_tokens: 95,
          input: { total_tokens: 61, cached_tokens: 0, cache_write_tokens: 0, text_tokens: 61 },
          output: { total_tokens: 34, text_tokens: 34, reasoning_tokens: 0 },
        },
      },
    },
    artifacts: {
      conversation_audio: `audio/${scenarioId}/conversation.wav`,
      conversation_transcript: `audio/${scenarioId}/conversation.transcript.txt`,
      events: `events/${scenarioId}.jsonl`,
      details: `audio/${scenarioId}/conversation.result.json`,
    },
    error: null,
    title: 'Move a booking to another evening',
    observability: {
      agenda: { total: 2, completed: ['ask_to_move'], skipped: [], bypassed: [], pending_required: [] },
      interaction: { mode: 'multi_turn', audio_source: 'dual_gpt_live', caller_mode: 'offline_fixture' },
    },
    validity: {
      scope: 'frontend_only_caller_delegation',
      status: 'valid',
      target_metrics_eligible: true,
      reason: null,
      unexpected_delegation_count: 0,
      delegation_ids: [],
    },
  }
}

/** A CRAWL row that failed before its audio was measured: five null metrics and only the artifacts it wrote. */
export function referenceFailedCrawlRow(scenarioId = 'bistro_hours'): Record<string, unknown> {
  return {
    scenario_id: scenarioId,
    status: 'infrastructure_error',
    metrics: {
      task: {
        task_completed: false,
        semantic_quality: { score: null, dimensions: {} },
        tool_accuracy: null,
        tool_calls: null,
        delegation_accuracy: null,
        delegations: null,
        turns: null,
      },
      audio: {
        response_rate: null,
        response_latency_ms: null,
        interruption_rate: null,
        speaking_duration_ms: null,
        floor_hold_silence_ms: null,
      },
      consumption: { frontend: {}, backend: {} },
    },
    artifacts: { input_audio: `audio/${scenarioId}/input.wav`, events: `events/${scenarioId}.jsonl` },
    error: { stage: 'session_start', message: 'GPT Live session did not start before the timeout' },
    title: 'Opening hours',
  }
}

/** A row whose delegated work went to two backend models: `models` lists each model's own usage. */
export function referenceTwoModelRow(scenarioId = 'bistro_allergy'): Record<string, unknown> {
  const row = referenceRunRow(scenarioId)
  const metrics = row.metrics as { consumption: { backend: Record<string, unknown> } }
  metrics.consumption.backend.models = [
    { model: 'gpt-5.6-terra', total_tokens: 60, input_tokens: 40, output_tokens: 20 },
    {
      model: 'gpt-5.6-luna',
      total_tokens: 35,
      input_tokens: 21,
      output_tokens: 14,
      input_tokens_details: { cached_tokens: 0 },
    },
  ]
  return row
}

export function referenceDocument(rows: readonly Record<string, unknown>[]): Record<string, unknown> {
  const count = (status: string) => rows.filter((row) => row.status === status).length
  return {
    schema_version: '2.0',
    run: {
      id: 'bistro_offline_20261201_081500_250Z',
      module: 'run',
      execution_mode: 'offline_fixture',
      interaction: 'multi_turn',
      dataset: 'datasets/bistro/scenarios.json',
      configuration: { model: 'gpt-live-1', assistant_mode: 'client', assistant_endpoint: '', seed: 11 },
    },
    summary: {
      total: rows.length,
      passed: count('passed'),
      failed: count('failed'),
      infrastructure_errors: count('infrastructure_error'),
    },
    results: rows,
  }
}
