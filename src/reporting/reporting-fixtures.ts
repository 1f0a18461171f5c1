// A valid passing row input that reporting tests alter one field at a time.

import type { ResultRowInput } from './result-item.ts'

export function passingRowInput(overrides: Partial<ResultRowInput> = {}): ResultRowInput {
  return {
    scenario_id: 'restaurant_001',
    title: 'Simple booking',
    raw_status: 'ok',
    task_completed: true,
    semantic_quality: { score: null, dimensions: {} },
    evidence: {
      tool_accuracy: 1,
      delegation_accuracy: 1,
      tool_calls: '1/1',
      delegations: '1/1',
      turns: '2/2',
    },
    audio: null,
    consumption: { frontend: { audio_duration_ms: 9_000 }, backend: {} },
    artifacts: {
      input_audio: 'audio/restaurant_001/input.wav',
      output_audio: 'audio/restaurant_001/output.wav',
      conversation_audio: 'audio/restaurant_001/conversation.wav',
      conversation_transcript: 'audio/restaurant_001/conversation.transcript.txt',
      events: 'events/restaurant_001.jsonl',
      details: 'transcripts/restaurant_001.json',
    },
    error: null,
    ...overrides,
  }
}
