// Attaching a scenario's audio to its test, so `vitest --ui` (and any reporter reading annotations) links the
// caller's request and the assistant's answer. Vitest copies an attachment given by path into its attachments
// folder (the plugin puts it in `<results dir>/.attachments` and bounds what it keeps: see
// plugin/attachment-retention.ts); files that were not written (the execution failed first) are not attached.
import type { TestContext } from 'vitest'
import type { ResultArtifacts } from '../reporting/result-schema.ts'

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
