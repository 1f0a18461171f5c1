// Attaching a scenario's audio to its test, so `vitest --ui` (and any reporter reading annotations) links the
// caller's request and the assistant's answer. Vitest copies an attachment given by path into its attachments
// folder; files that were not written (the execution failed first) are simply not attached.
import { join, resolve } from 'node:path'
import type { TestContext } from 'vitest'
import type { Environment, Phase } from '../config/index.ts'
import type { SingleTurnArtifactPaths } from '../phases/single-turn/types.ts'
import { loadSuiteSettings, resultsDirectory } from './settings.ts'

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

/**
 * Vitest's `attachmentsDir` for a config whose runs use this phase's settings: `<results dir>/.attachments`, the
 * results directory being LIVE_EVALS_RESULTS_DIR / `execution.results_dir` / `results/<phase>` as for the runs,
 * so the copies stay with the run output (private, ignored by git). Settings that do not load fall back to the
 * default folder: such a run never starts (the global setup reports why), so nothing is attached.
 */
export function attachmentsDirectoryFor(
  phase: Phase,
  configFile: string,
  options: { projectRoot?: string; env?: Environment } = {},
): string {
  const projectRoot = options.projectRoot ?? process.cwd()
  let resultsDir: string
  try {
    const settings = loadSuiteSettings(phase, resolve(projectRoot, configFile), {
      cwd: projectRoot,
      ...(options.env === undefined ? {} : { env: options.env }),
    })
    resultsDir = resultsDirectory(settings, projectRoot)
  } catch {
    resultsDir = resolve(projectRoot, 'results', phase)
  }
  return join(resultsDir, '.attachments')
}
