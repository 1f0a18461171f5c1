// Attaching a scenario's audio to its test, so `vitest --ui` (and any reporter reading annotations) links the
// caller's request and the assistant's answer. Vitest copies an attachment given by path into its attachments
// folder; files that were not written (the execution failed first) are simply not attached.
import type { TestContext } from 'vitest'
import type { SingleTurnArtifactPaths } from '../phases/single-turn/types.ts'

export const AUDIO_ANNOTATION_TYPE = 'live-evals:audio'

const ATTACHED: { key: keyof SingleTurnArtifactPaths; label: string }[] = [
  { key: 'input_audio', label: 'caller audio (input.wav)' },
  { key: 'output_audio', label: 'assistant audio (output.wav)' },
  { key: 'conversation_audio', label: 'conversation, caller left / assistant right (conversation.wav)' },
]

export async function attachScenarioAudio(
  annotate: TestContext['annotate'],
  artifacts: SingleTurnArtifactPaths,
): Promise<void> {
  for (const { key, label } of ATTACHED) {
    const path = artifacts[key]
    if (path === null) continue
    await annotate(label, AUDIO_ANNOTATION_TYPE, { contentType: 'audio/wav', path })
  }
}
