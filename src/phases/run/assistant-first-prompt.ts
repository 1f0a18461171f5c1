// RUN's assistant-first opening: the prompt file's text, sent unchanged. Read with the guards of every input file
// (a regular file, bounded), and refused when it cannot serve as an opening, naming the setting and the file. The
// run plan reads it before anything starts; each conversation reads it again (it is small) for its own copy.
import { HarnessConfigError } from '../../config/errors.ts'
import type { RunSettings } from '../../config/index.ts'
import { InputFileError, readInputFile } from '../../scenarios/read-input-file.ts'

/** An opening prompt is a few sentences; anything larger is not one. */
const MAX_PROMPT_BYTES = 64 * 1024

/** The opening prompt; null when the caller speaks first. Throws HarnessConfigError naming the problem. */
export async function readAssistantFirstPrompt(settings: RunSettings): Promise<string | null> {
  const file = settings.simulation.assistant_first_prompt_file
  if (file === null) return null
  const refuse = (reason: string) =>
    new HarnessConfigError([
      `simulation.assistant_first_prompt_file (LIVE_EVALS_ASSISTANT_FIRST_PROMPT_FILE) ${file}: ${reason}`,
    ])
  let bytes: Uint8Array
  try {
    bytes = await readInputFile(file, MAX_PROMPT_BYTES)
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error
    const refusal = error.refusal
    throw refuse(
      refusal.kind === 'not_a_file'
        ? 'is not a regular file'
        : refusal.kind === 'too_large'
          ? `is ${refusal.bytes} bytes; an opening prompt may be at most ${MAX_PROMPT_BYTES}`
          : `cannot be read (${refusal.code})`,
    )
  }
  const text = Buffer.from(bytes).toString('utf8')
  if (text.trim() === '')
    throw refuse('is empty; write the assistant-first opening prompt in it, or unset it')
  return text
}
