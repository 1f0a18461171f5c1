// Attaching a scenario's audio to its test, so `vitest --ui` (and any reporter reading annotations) links the
// caller's request and the assistant's answer. Vitest copies an attachment given by path into its attachments
// folder (the plugin puts it in `<results dir>/.attachments` and bounds what it keeps: see
// plugin/attachment-retention.ts); files that were not written (the execution failed first) are not attached.
// The timeline image is the exception: it goes inline (see attachScenarioTimeline).
import { readFile } from 'node:fs/promises'
import type { TestContext } from 'vitest'
import { scenarioReportLink, writeScenarioTimelineImage } from '../report/write-report.ts'
import type { ResultArtifacts, ResultItem } from '../reporting/result-schema.ts'
import { rowKeyOf } from '../reporting/row-key.ts'

export const AUDIO_ANNOTATION_TYPE = 'live-evals:audio'

type AudioArtifacts = Pick<ResultArtifacts, 'input_audio' | 'output_audio' | 'conversation_audio'>

const ATTACHED: { key: keyof AudioArtifacts; label: string }[] = [
  { key: 'input_audio', label: 'caller audio (input.wav)' },
  { key: 'output_audio', label: 'assistant audio (output.wav)' },
  { key: 'conversation_audio', label: 'conversation, caller left / assistant right (conversation.wav)' },
]

/** @param artifacts absolute paths of the written audio files; null for one that was not written */
export async function attachScenarioAudio(
  annotate: TestContext['annotate'],
  artifacts: AudioArtifacts,
): Promise<void> {
  for (const { key, label } of ATTACHED) {
    const path = artifacts[key]
    if (path === null) continue
    await annotate(label, AUDIO_ANNOTATION_TYPE, { contentType: 'audio/wav', path })
  }
}

export const TIMELINE_ANNOTATION_TYPE = 'live-evals:timeline'
export const TIMELINE_CONTENT_TYPE = 'image/svg+xml'

/**
 * `vitest --ui` previews images but not audio, and shows annotation text without links: attach the scenario's
 * timeline (both speakers' voiced intervals, transcripts, delegations, tools) as an SVG beside its WAVs, with the
 * path of the run's HTML report and the scenario's anchor in the text. A timeline that cannot be drawn is left
 * out; it never fails the test.
 *
 * The SVG goes inline (its bytes as the body), not by path: the UI fetches a path attachment from
 * `/__vitest_attachment__?…&contentType=image/svg+xml` without encoding the content type, its server reads the
 * `+` back as a space and serves `image/svg xml`, which no browser draws. An inline body becomes a
 * `data:image/svg+xml;base64,…` URL, which the UI (and the static html reporter) show as is. The file is still
 * written beside the WAVs for the HTML report.
 */
export async function attachScenarioTimeline(
  annotate: TestContext['annotate'],
  runDirectory: string,
  row: ResultItem,
): Promise<void> {
  let svg: Uint8Array
  try {
    const image = await writeScenarioTimelineImage(runDirectory, row)
    if (image === null) return
    svg = new Uint8Array(await readFile(image))
  } catch {
    return
  }
  await annotate(
    `timeline; report: ${scenarioReportLink(runDirectory, row.scenario_id, rowKeyOf(row).trial)}`,
    TIMELINE_ANNOTATION_TYPE,
    { contentType: TIMELINE_CONTENT_TYPE, body: svg },
  )
}
