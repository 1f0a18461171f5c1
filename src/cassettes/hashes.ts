// Content hashes the cassette header and replay compare: of JSON values (key order does not matter) and of bytes.
import { createHash } from 'node:crypto'
import { stableJson } from '../artifacts/stable-json.ts'

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

export function jsonHash(value: unknown): string {
  return sha256Hex(stableJson(value))
}
