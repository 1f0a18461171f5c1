// What the offline server accepts from a peer, and what it answers when a limit is passed. The service
// documents no frame or depth limits, so these are ours, named plainly; they are generous for every real
// client (a 200 ms audio append is 13 KB of base64, a large session.start a few hundred KB) and small enough
// that no frame, however built, can exhaust the stack or the heap of the process serving other sessions.
//
//   limit                     value    when passed
//   maxFrameBytes             1 MiB    `error` code `frame_too_large` (param none); the frame is ignored
//   maxTransportFrameBytes    8 MiB    WebSocket close 1009 (message too big); the connection is dropped
//   maxNestingDepth           64       `error` code `nesting_too_deep`; the frame is ignored
//   maxSendBufferBytes        8 MiB    a client that does not read (bytes queued in the socket and in
//                                      our own send queue, counted together): close 1008 (policy) with
//                                      reason `send_buffer_exceeded`; the queue is released at once
//   closeGraceMs              1 s      after that close frame (or a close waiting behind queued frames), how
//                                      long the client has to read it before the socket is destroyed
//   upgradeTimeoutMs          10 s     a TCP connection without an accepted upgrade is closed
//   maxPendingConnections     256      such connections at once; a new one closes the oldest
//   maxPendingAppends         128      `error` code `too_many_pending_appends` for a context append made
//                                      while this many still wait for the audio clock (a stalled stream)
//   (a bug of ours)           -        `error` type `server_error` code `offline_server_error`, then close
//                                      1011; only that session ends
//
// Frames before `session.start` that break a limit end the connection as any bad first frame does (one
// `error`, then close 1008). Limits count UTF-8 bytes of the text frame; depth counts every `{` and `[`.

export interface OfflineServerLimits {
  /** Largest text frame that is parsed; larger ones (up to maxTransportFrameBytes) get `frame_too_large`. */
  maxFrameBytes: number
  /** Largest frame the WebSocket layer reads at all; beyond it the connection is closed with 1009. */
  maxTransportFrameBytes: number
  /** Deepest nesting of objects and arrays in one frame. */
  maxNestingDepth: number
  /** Bytes queued for one client beyond which it is taken as not reading and disconnected. */
  maxSendBufferBytes: number
  /** Context appends that may wait for their acknowledgement at once (they wait for the audio clock). */
  maxPendingAppends: number
  /** After a close is started on a client that is not reading, how long before its socket is destroyed. */
  closeGraceMs: number
  /** A connection that has not completed its WebSocket upgrade by then is closed. */
  upgradeTimeoutMs: number
  /** Connections without a completed upgrade at once; a new one beyond it closes the oldest. */
  maxPendingConnections: number
}

const MIB = 1024 * 1024

export const DEFAULT_LIMITS: Readonly<OfflineServerLimits> = Object.freeze({
  maxFrameBytes: 1 * MIB,
  maxTransportFrameBytes: 8 * MIB,
  maxNestingDepth: 64,
  maxSendBufferBytes: 8 * MIB,
  maxPendingAppends: 128,
  closeGraceMs: 1_000,
  upgradeTimeoutMs: 10_000,
  maxPendingConnections: 256,
})

/** Error codes of our own naming for the limits above (the lead's README lists them with the limits). */
export const LIMIT_ERROR_CODES = {
  frameTooLarge: 'frame_too_large',
  nestingTooDeep: 'nesting_too_deep',
  tooManyPendingAppends: 'too_many_pending_appends',
  offlineServerError: 'offline_server_error',
} as const

/** WebSocket close codes used when a limit ends the connection. */
export const LIMIT_CLOSE = {
  /** RFC 6455 "message too big". */
  frameTooBig: 1009,
  /** RFC 6455 "policy violation"; reason `send_buffer_exceeded`. */
  sendBufferExceeded: 1008,
  /** RFC 6455 "internal error": the session's handler failed. */
  internalError: 1011,
} as const

export const SEND_BUFFER_EXCEEDED_REASON = 'send_buffer_exceeded'

/** Resolves the limits of one server from partial options; every value must be a positive integer. */
export function resolveLimits(overrides: Partial<OfflineServerLimits> = {}): OfflineServerLimits {
  const limits = { ...DEFAULT_LIMITS, ...overrides }
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new Error(
        `offline GPT-Live server: limits.${name} must be a positive integer, got ${String(value)}`,
      )
    }
  }
  if (limits.maxFrameBytes > limits.maxTransportFrameBytes) {
    throw new Error(
      'offline GPT-Live server: limits.maxFrameBytes must not exceed limits.maxTransportFrameBytes',
    )
  }
  return limits
}
