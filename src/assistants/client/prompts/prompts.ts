// The client-delegation assistant's own prompts: what the GPT-Live voice model is told, and what the
// application's backend model (the in-process client backend) is told. Independent of the Responses copy
// on purpose: each architecture is self-contained.
import { readPromptFile } from '../../frontend/prompt-file.ts'

// Read once per process (an application is built for every scenario); a string cannot be changed by its
// callers, so the one read is shared. A missing or empty file is not remembered and fails again next call.
let voicePromptOnce: string | undefined
let backendPromptOnce: string | undefined

/** Instructions for the GPT-Live voice model (before the authorized context is appended). */
export function clientVoicePrompt(): string {
  voicePromptOnce ??= readPromptFile(new URL('./voice.txt', import.meta.url))
  return voicePromptOnce
}

/**
 * Instructions for the application's own backend model. Never sent to GPT-Live: in client delegation the
 * application, not the Live session, runs the backend.
 */
export function clientBackendPrompt(): string {
  backendPromptOnce ??= readPromptFile(new URL('./backend.txt', import.meta.url))
  return backendPromptOnce
}
