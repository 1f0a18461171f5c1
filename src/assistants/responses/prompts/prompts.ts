// The Responses-delegation assistant's own prompts: what the GPT-Live voice model is told, and what the
// delegated Responses backend is told. Read from the .txt files next to this module, so the
// files stay the single source and a missing file fails with its path.
import { readPromptFile } from '../../frontend/prompt-file.ts'

// Read once per process (an application is built for every scenario); a string cannot be changed by its
// callers, so the one read is shared. A missing or empty file is not remembered and fails again next call.
let voicePromptOnce: string | undefined
let backendPromptOnce: string | undefined

/** Instructions for the GPT-Live voice model (before the authorized context is appended). */
export function responsesVoicePrompt(): string {
  voicePromptOnce ??= readPromptFile(new URL('./voice.txt', import.meta.url))
  return voicePromptOnce
}

/** Instructions for the delegated Responses backend (before the authorized context is appended). */
export function responsesBackendPrompt(): string {
  backendPromptOnce ??= readPromptFile(new URL('./backend.txt', import.meta.url))
  return backendPromptOnce
}
