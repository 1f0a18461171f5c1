// Content hashes the cassette header and replay compare: of JSON values (key order does not matter) and of bytes.
import { createHash } from 'node:crypto'

/** JSON text with object keys sorted, so equal values hash equal whatever order their keys were built in. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

export function jsonHash(value: unknown): string {
  return sha256Hex(stableJson(value))
}
