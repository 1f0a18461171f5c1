// The Responses-delegation assistant's own prompts: what the GPT-Live voice model is told, and what the
// delegated Responses backend is told. Read from the .txt files next to this module on every call, so the
// files stay the single source and a missing file fails with its path.
import { readPromptFile } from '../../frontend/prompt-file.ts'

/** Instructions for the GPT-Live voice model (before the authorized context is appended). */
export function responsesVoicePrompt(): string {
  return readPromptFile(new URL('./voice.txt', import.meta.url))
}

/** Instructions for the delegated Responses backend (before the authorized context is appended). */
export function responsesBackendPrompt(): string {
  return readPromptFile(new URL('./backend.txt', import.meta.url))
}
