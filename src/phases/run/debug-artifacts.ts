// RUN's debugging artifacts (simulation.debug_artifacts / LIVE_EVALS_RUN_DEBUG): one JSONL line per media-clock
// tick with who was voiced, whether a delegation was open and which caller utterance was playing; and one line
// per turn of either speaker. They are derived from the one timeline after the call, so they show exactly what
// the metrics were computed from, and they cost nothing when not asked for.
import { writeArtifact } from '../../artifacts/index.ts'
import type { Interval } from '../../metrics/intervals.ts'
import type { PlayedConversation } from './observed.ts'

export interface DebugArtifactPaths {
  ticks: string
  turns: string
}

export function debugArtifactLayout(scenarioId: string): DebugArtifactPaths {
  return { ticks: `debug/${scenarioId}/ticks.jsonl`, turns: `debug/${scenarioId}/turns.jsonl` }
}

const overlaps = (intervals: readonly Interval[], from: number, to: number) =>
  intervals.some((interval) => interval.start_ms < to && interval.end_ms > from)

const jsonl = (records: readonly object[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('')

export async function writeDebugArtifacts(
  runDirectory: string,
  scenarioId: string,
  conversation: PlayedConversation,
  tickMs: number,
): Promise<DebugArtifactPaths> {
  const { call, plan } = conversation
  const speech = call.timeline.speechIntervals()
  const toInterval = ({ startMs, endMs }: { startMs: number; endMs: number }) => ({
    start_ms: startMs,
    end_ms: endMs,
  })
  const caller = speech.caller.map(toInterval)
  const assistant = speech.assistant.map(toInterval)
  const delegations = call.timeline.delegations.map((span) => ({
    start_ms: span.startMs,
    end_ms: span.settledMs ?? call.endedAtMs,
  }))
  const ticks: object[] = []
  for (let at = 0; at < call.endedAtMs; at += tickMs) {
    const next = at + tickMs
    const utterance = plan.find((line) => line.startMs < next && line.endMs > at)
    ticks.push({
      tick_ms: at,
      caller_voiced: overlaps(caller, at, next),
      assistant_voiced: overlaps(assistant, at, next),
      delegation_active: overlaps(delegations, at, next),
      caller_utterance: utterance === undefined ? null : { action: utterance.action, text: utterance.text },
    })
  }
  const turns = [
    ...caller.map((interval) => ({ speaker: 'caller', ...interval })),
    ...assistant.map((interval) => ({ speaker: 'assistant', ...interval })),
  ].sort((a, b) => a.start_ms - b.start_ms || a.speaker.localeCompare(b.speaker))
  const layout = debugArtifactLayout(scenarioId)
  await writeArtifact(runDirectory, layout.ticks, jsonl(ticks))
  await writeArtifact(runDirectory, layout.turns, jsonl(turns))
  return layout
}
