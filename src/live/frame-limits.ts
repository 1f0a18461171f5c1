// What the harness accepts from a GPT-Live server in one frame. A misbehaving server (or a proxy in front
// of one) must not be able to exhaust the harness's memory or stack: an oversized or deeply nested frame
// ends the session as a `malformed_event` failure at the stage it arrived in, like any other bad frame.

/** Largest frame read from the server (the socket refuses bigger ones before buffering them). The biggest
 * legitimate frames are session snapshots echoing the instructions and tools, well under a megabyte. */
export const MAX_SERVER_FRAME_BYTES = 16 * 1024 * 1024

/** Deepest nesting of objects and arrays accepted in one server event. */
export const MAX_SERVER_EVENT_DEPTH = 64

/** True for the socket's refusal of a frame beyond MAX_SERVER_FRAME_BYTES (ws: "Max payload size exceeded"). */
export function isOversizedFrameError(message: string, cause: unknown): boolean {
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined
  return code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' || /max payload size exceeded/i.test(message)
}

export const oversizedFrameMessage = (): string =>
  `the server sent a frame larger than ${MAX_SERVER_FRAME_BYTES} bytes, the most the harness reads`

export const deepEventMessage = (): string =>
  `the server sent an event nested deeper than ${MAX_SERVER_EVENT_DEPTH} levels, the most the harness reads`
