// From what the session observed to the facts graders and metrics need: the SingleTurnObservation (validated
// with its zod schema), the interaction timeline for the audio metrics and the usage for consumption.

import type { AssistantUnderTest } from '../../assistants/assistant-session.ts'
import {
  type RequestedToolCall,
  type SingleTurnObservation,
  SingleTurnObservationSchema,
  type ToolExecution,
} from '../../observability/observation.ts'
import { computeInteractionMetrics, type InteractionMetrics } from '../../metrics/interaction.ts'
import type { UsageRecord } from '../../reporting/consumption.ts'
import type { CollectedResponse } from './collect.ts'
import type { ScenarioSession } from './scenario-session.ts'
import type { CallerAudio } from './types.ts'

function parseArguments(raw: unknown): Record<string, unknown> {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Record<string, unknown>
  if (typeof raw !== 'string') return {}
  try {
    const parsed: unknown = JSON.parse(raw)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

/** What the backend asked for, in request order, one entry per call_id (repeated deliveries are one request). */
function requestedCalls(assistant: AssistantUnderTest, executions: ToolExecution[]): RequestedToolCall[] {
  const observed = assistant.delegations()
  if (observed.architecture !== 'responses') {
    // The client application's backend calls tools directly: every execution is one request.
    return executions.map((execution) => ({ name: execution.name, arguments: execution.arguments }))
  }
  const seen = new Set<string>()
  const calls: RequestedToolCall[] = []
  for (const call of observed.records.requestedCalls) {
    if (call.name === null) continue
    if (call.callId !== null) {
      if (seen.has(call.callId)) continue
      seen.add(call.callId)
    }
    calls.push({ name: call.name, arguments: parseArguments(call.arguments) })
  }
  return calls
}

export function buildObservation(
  session: ScenarioSession,
  callerAudio: CallerAudio,
  collected: CollectedResponse,
): SingleTurnObservation {
  const { assistant, timeline } = session
  const executions: ToolExecution[] = assistant.tools.executions().map((record) => ({
    call_id: record.call_id ?? '',
    name: record.name,
    arguments: parseArguments(record.arguments),
    status: record.status,
    output: record.output,
    // The runtime does not stamp its records; unknown rather than a guessed time.
    completed_at_ms: null,
  }))
  const lines = timeline.lines()
  const speech = timeline.speechIntervals()
  const transcript: SingleTurnObservation['transcript'] = lines.map((line) => ({
    role: line.role,
    text: line.text,
    start_ms: line.startMs,
  }))
  if (!transcript.some((line) => line.role === 'user')) {
    // No input transcript arrived: the caller said exactly the request text (we produced the audio).
    transcript.unshift({ role: 'user', text: callerAudio.text, start_ms: speech.caller[0]?.startMs ?? null })
  }
  // The caller can hear a tool's result only once it was published to the voice model.
  const settled = timeline.delegations.map((span) => span.settledMs).filter((ms): ms is number => ms !== null)
  const resultMs = executions.length > 0 && settled.length > 0 ? Math.max(...settled) : null
  const postToolText =
    resultMs === null
      ? ''
      : lines
          .filter((line) => line.role === 'assistant' && line.startMs >= resultMs)
          .map((line) => line.text)
          .join(' ')
  return SingleTurnObservationSchema.parse({
    termination_reason: collected.terminationReason,
    delegation_ids: [...session.delegationIds],
    requested_tool_calls: requestedCalls(assistant, executions),
    tool_executions: executions,
    initial_application_state: assistant.tools.initialState,
    final_application_state: assistant.tools.snapshot(),
    transcript,
    post_tool_assistant_text: postToolText,
    caller_turn_count: speech.caller.length > 0 ? 1 : 0,
    assistant_response_episode_count: speech.assistant.length,
    closing_turn_count: 0,
  })
}

/** Audio-derived interaction metrics (§4.2) on the session timeline. */
export function interactionMetrics(
  session: ScenarioSession,
  collected: CollectedResponse,
): InteractionMetrics {
  const { timeline } = session
  const speech = timeline.speechIntervals()
  const toInterval = (interval: { startMs: number; endMs: number }) => ({
    start_ms: interval.startMs,
    end_ms: interval.endMs,
  })
  const observationEnd = Math.max(collected.endedAtMs, timeline.recorder.durationMs)
  const callerStart = speech.caller[0]
  const callerEnd = speech.caller.at(-1)
  return computeInteractionMetrics({
    caller_turns:
      callerStart === undefined || callerEnd === undefined
        ? []
        : [{ start_ms: callerStart.startMs, end_ms: callerEnd.endMs, kind: 'request' }],
    assistant_turns: speech.assistant.map((interval) => [toInterval(interval)]),
    delegation_intervals: timeline.delegations.map((span) => ({
      start_ms: span.startMs,
      end_ms: span.settledMs ?? observationEnd,
    })),
    observation_end_ms: observationEnd,
  })
}

/** Backend usage of the assistant under test (nested Responses usage); never the judge's. */
export function backendUsageRecords(assistant: AssistantUnderTest, backendModel: string): UsageRecord[] {
  const observed = assistant.delegations()
  if (observed.architecture !== 'responses') return []
  return observed.records.backendUsage.flatMap((record) =>
    record.usage === null
      ? []
      : [
          {
            source: 'assistant_backend' as const,
            model: backendModel,
            usage: record.usage as UsageRecord['usage'],
          },
        ],
  )
}
