// Reading one WebSocket frame of the endpoint protocol, the same way on both sides (the reference service and
// the evaluator's remote connector): ws hands a text frame over as a Buffer, an ArrayBuffer or fragments, and
// every message of the contract is one JSON object.
import type { RawData } from 'ws'
import { nestsDeeperThan } from '../../../../live/json-depth.ts'
import type { JsonObject } from '../../../offline-behaviour.ts'
import { isJsonObject } from '../../../runtime/json.ts'

/**
 * Deepest nesting of objects and arrays accepted in one frame. JSON.parse takes any depth, but what walks the
 * value afterwards (zod, structuredClone, JSON.stringify of the reply) recurses and overflows the stack on a
 * frame nested tens of thousands deep, which would be reported as the service's own failure instead of the
 * peer's malformed input. Application states come from datasets bounded at 64 levels (src/scenarios/limits.ts)
 * and sit two or three levels down in a frame; 128 leaves room for that and is far from any stack limit.
 */
export const MAX_FRAME_DEPTH = 128

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
  if (nestsDeeperThan(message, MAX_FRAME_DEPTH)) {
    return { ok: false, problem: `frame nests objects and arrays deeper than ${MAX_FRAME_DEPTH} levels` }
  }
  return { ok: true, message }
}
