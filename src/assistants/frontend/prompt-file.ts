import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Reads a bundled prompt file; trailing whitespace is dropped so the appended context starts cleanly. */
export function readPromptFile(url: URL): string {
  const path = fileURLToPath(url)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new Error(
      `Cannot read the assistant prompt ${path}: ${(error as Error).message}. Restore it from git.`,
      { cause: error },
    )
  }
  const prompt = text.trimEnd()
  if (prompt === '') throw new Error(`The assistant prompt ${path} is empty; restore it from git.`)
  return prompt
}
