// Reading one WebSocket frame of the endpoint protocol, the same way on both sides (the reference service and
// the evaluator's remote connector): ws hands a text frame over as a Buffer, an ArrayBuffer or fragments, and
// every message of the contract is one JSON object.
import type { RawData } from 'ws'
import type { JsonObject } from '../../../offline-behaviour.ts'
import { isJsonObject } from '../../../runtime/json.ts'

export function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8')
}

export function frameByteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.byteLength, 0)
  return data.byteLength
}

/** The frame's JSON object, or what is wrong with the frame (each side wraps it in its own protocol error). */
export function frameObject(
  text: string,
): { ok: true; message: JsonObject } | { ok: false; problem: string } {
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch {
    return { ok: false, problem: 'frame is not JSON' }
  }
  if (!isJsonObject(message)) return { ok: false, problem: 'frame is not a JSON object' }
  return { ok: true, message }
}
