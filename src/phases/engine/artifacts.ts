// The per-scenario artifacts of an execution (reference §4.3), written 0600 under the run directory
// through the checked-destination writer. Paths in results rows are relative to the run directory.

import { writeArtifact, writeJsonArtifact } from '../../artifacts/index.ts'
import type { SessionTimeline } from '../../observability/timeline.ts'
import type { SessionTrace } from '../../observability/trace.ts'
import type { ResultArtifacts } from '../../reporting/result-schema.ts'
import { trialArtifactName } from '../../reporting/row-key.ts'

/**
 * Absolute paths of the artifacts written for one scenario; null when not written. The keys are the results
 * row's `artifacts` (which holds the same files relative to the run directory).
 */
export type ArtifactPaths = ResultArtifacts

/** The artifact folder of a scenario's execution: its id, `__t<i>` appended for a trial of a trials run. */
export function artifactNameOf(scenario: { id: string }, env: { trial?: number | null }): string {
  return trialArtifactName(scenario.id, env.trial ?? null)
}

export function artifactLayout(scenarioId: string): Record<keyof ArtifactPaths, string> {
  return {
    input_audio: `audio/${scenarioId}/input.wav`,
    output_audio: `audio/${scenarioId}/output.wav`,
    conversation_audio: `audio/${scenarioId}/conversation.wav`,
    conversation_transcript: `audio/${scenarioId}/conversation.transcript.txt`,
    events: `events/${scenarioId}.jsonl`,
    details: `transcripts/${scenarioId}.json`,
  }
}

/** Relative paths of the artifacts that exist, for the results row. */
export function relativeArtifacts(scenarioId: string, written: ArtifactPaths): ResultArtifacts {
  const layout = artifactLayout(scenarioId)
  const relative = (key: keyof ArtifactPaths) => (written[key] === null ? null : layout[key])
  return {
    input_audio: relative('input_audio'),
    output_audio: relative('output_audio'),
    conversation_audio: relative('conversation_audio'),
    conversation_transcript: relative('conversation_transcript'),
    events: relative('events'),
    details: relative('details'),
  }
}

function formatMs(ms: number): string {
  const total = Math.max(0, Math.round(ms))
  const minutes = Math.floor(total / 60_000)
  const seconds = Math.floor((total % 60_000) / 1000)
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}.${String(total % 1000).padStart(3, '0')}`
}

/** The readable transcript: one `[mm:ss.mmm] ROLE: text` line per utterance, on the session clock. */
function conversationTranscriptText(timeline: SessionTimeline): string {
  return timeline
    .lines()
    .map(
      (line) =>
        `[${formatMs(line.startMs)}] ${line.role === 'user' ? 'CALLER' : 'ASSISTANT'}: ${line.text}\n`,
    )
    .join('')
}

/**
 * How a scenario's artifacts are written: atomically, without flushing each to disk. A killed run still leaves
 * whole files (the rename is atomic); only a power cut could empty one, and what a run's results rest on (the
 * rows journal, results.json) is flushed where it is written. Six flushes per scenario were a thread-pool wait
 * and a disk round trip each.
 */
export const SCENARIO_ARTIFACT = { flush: false } as const

/** Writes the audio, transcript and event artifacts into `written` as they succeed (kept on a later failure). */
export async function writeSessionArtifacts(
  runDirectory: string,
  scenarioId: string,
  timeline: SessionTimeline,
  trace: SessionTrace,
  written: ArtifactPaths,
): Promise<void> {
  const layout = artifactLayout(scenarioId)
  written.input_audio = await writeArtifact(
    runDirectory,
    layout.input_audio,
    timeline.recorder.toMonoWav('caller'),
    SCENARIO_ARTIFACT,
  )
  written.output_audio = await writeArtifact(
    runDirectory,
    layout.output_audio,
    timeline.recorder.toMonoWav('assistant'),
    SCENARIO_ARTIFACT,
  )
  written.conversation_audio = await writeArtifact(
    runDirectory,
    layout.conversation_audio,
    timeline.recorder.toStereoWav(),
    SCENARIO_ARTIFACT,
  )
  // A conversation in which nothing was transcribed (one stopped before anyone spoke) has no transcript file: the
  // row says null rather than pointing at an empty file, which would look like one cut short.
  const transcript = conversationTranscriptText(timeline)
  written.conversation_transcript =
    transcript === ''
      ? null
      : await writeArtifact(runDirectory, layout.conversation_transcript, transcript, SCENARIO_ARTIFACT)
  // Likewise no event file without events (a RUN call that failed before its first one).
  written.events =
    trace.records.length === 0
      ? null
      : await writeArtifact(runDirectory, layout.events, trace.toJsonl(), SCENARIO_ARTIFACT)
}

export async function writeDetails(
  runDirectory: string,
  scenarioId: string,
  details: Record<string, unknown>,
  written: ArtifactPaths,
): Promise<void> {
  written.details = await writeJsonArtifact(
    runDirectory,
    artifactLayout(scenarioId).details,
    details,
    SCENARIO_ARTIFACT,
  )
}
