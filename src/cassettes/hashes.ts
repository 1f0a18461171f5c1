// Content hashes the cassette header and replay compare: of JSON values (key order does not matter) and of bytes.
import { hash } from 'node:crypto'
import { stableJson } from '../artifacts/stable-json.ts'

/** One shot (`crypto.hash`): a recording hashes every 20 ms audio frame, and a Hash object per frame cost twice as much. */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex')
}

export function jsonHash(value: unknown): string {
  return sha256Hex(stableJson(value))
}
