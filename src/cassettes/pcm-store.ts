// The audio of a recording, kept beside the JSON rather than in it: one growing byte file per name, and the
// byte budget of the whole cassette. Past the budget nothing more is kept and the recording is marked
// overflowed (the write then refuses, naming the cassette), so a runaway session cannot exhaust memory.

import { sha256Hex } from './hashes.ts'
import type { AudioRef } from './schema.ts'

export class PcmStore {
  readonly #files = new Map<string, Uint8Array[]>()
  readonly #sizes = new Map<string, number>()
  readonly #limitBytes: number
  #usedBytes = 0
  overflowed = false

  constructor(limitBytes: number) {
    this.#limitBytes = limitBytes
  }

  /** Counts non-audio bytes (frame and body JSON) against the same budget; false once over it. */
  charge(bytes: number): boolean {
    this.#usedBytes += bytes
    if (this.#usedBytes > this.#limitBytes) this.overflowed = true
    return !this.overflowed
  }

  /** Appends `bytes` to `file` and returns where they are, or null once the budget is spent. */
  append(file: string, bytes: Uint8Array): AudioRef | null {
    if (!this.charge(bytes.byteLength)) return null
    const offset = this.#sizes.get(file) ?? 0
    const chunks = this.#files.get(file) ?? []
    chunks.push(new Uint8Array(bytes))
    this.#files.set(file, chunks)
    this.#sizes.set(file, offset + bytes.byteLength)
    return { file, offset, bytes: bytes.byteLength, sha256: sha256Hex(bytes) }
  }

  /** Every file's bytes, joined. */
  files(): Map<string, Uint8Array> {
    const joined = new Map<string, Uint8Array>()
    for (const [file, chunks] of this.#files) joined.set(file, Buffer.concat(chunks))
    return joined
  }
}
