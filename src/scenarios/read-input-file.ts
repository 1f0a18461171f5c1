// Reading a user's input file (a dataset, an interventions sidecar) with the same guards everywhere: only a
// regular file (a FIFO is opened non-blocking and refused instead of waiting for a writer), at most `maxBytes`,
// closed whatever happens. The caller turns each refusal into its own error, naming its own setting.
import { constants, type FileHandle, open } from 'node:fs/promises'

export type InputFileRefusal =
  | { kind: 'not_a_file' }
  | { kind: 'too_large'; bytes: number }
  | { kind: 'unreadable'; code: string }

export class InputFileError extends Error {
  readonly refusal: InputFileRefusal

  constructor(file: string, refusal: InputFileRefusal) {
    super(`${file}: ${refusal.kind}`)
    this.name = 'InputFileError'
    this.refusal = refusal
  }
}

export async function readInputFile(file: string, maxBytes: number): Promise<Uint8Array> {
  let handle: FileHandle | undefined
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK)
    const stats = await handle.stat()
    if (!stats.isFile()) throw new InputFileError(file, { kind: 'not_a_file' })
    if (stats.size > maxBytes) throw new InputFileError(file, { kind: 'too_large', bytes: stats.size })
    return await handle.readFile()
  } catch (error) {
    if (error instanceof InputFileError) throw error
    throw new InputFileError(file, {
      kind: 'unreadable',
      code: (error as NodeJS.ErrnoException).code ?? String(error),
    })
  } finally {
    await handle?.close()
  }
}
