// The cassette: one recorded execution (scenario × architecture × trial) of a live run, as data. Replay reads it
// and plays the service side back in answer to what the harness and the assistant's code send now.
//
// Decisions (issue 20, parts 2 and 3):
// - Layout. One folder per cassette, `<cassettes dir>/<cassette id>/`, 0700, holding `cassette.json` (this schema)
//   and one PCM file per session and direction (`<label>.sent.pcm`, `<label>.received.pcm`: 16-bit little-endian
//   mono, the session's format). Every file 0600, written to a temporary name and renamed (src/artifacts). The id
//   is `<scenario id>__<architecture>` (`__t<n>` for trial n of a trials run), so a cassette's name says which row
//   it replays. The default folder is `cassettes/<phase>/` beside the phase's TOML file.
// - Frames. Every WebSocket frame of every session in both directions, in the order they happened across the whole
//   execution (`seq` is one counter for sessions and HTTP), with the session clock's time (`at_ms`, the media
//   clock the timeline uses). Audio leaves the JSON: an append's `audio` and a delta's `delta` are removed and the
//   frame names its byte range in the session's PCM file with the bytes' sha256 (replay compares caller audio by
//   that hash).
// - HTTP. Every request the openai clients make (speech, Responses for the backend, judge, observer and caller
//   backend): method, path and query (never the host, never a header except the content type), the request body,
//   the status and the response body. A binary body (speech) goes to `http.pcm` by byte range like audio.
// - Redaction happens before anything is kept (redaction.ts): no header but content-type is ever stored (so no
//   Authorization), credential values the run holds, anything shaped like a key or a bearer token and every field
//   named like a secret (plus GPT_LIVE_EVALS_REDACT_FIELDS) become "[redacted]".
// - The header names what the recording depends on: live-evals and openai SDK versions, the models, a hash of the
//   scenario as loaded, a hash of the assistant's definition (its session configuration and tools as sent, taken
//   from the recorded session.start), and the settings that change behaviour (timeouts, clock, simulation). Replay
//   refuses a cassette of another format version, another scenario hash or another model by name; other settings
//   are reported, not refused (the first divergence says what they changed).
// - Size. A cassette is bounded (MAX_CASSETTE_BYTES, JSON and PCM together): recording stops keeping data past it
//   and the write fails with an error naming the cassette, never a truncated file.
// - tool_executions: what the application's tools did (the observation's record), compared exactly on replay.
// - pacing: how late the recording's own frames went out (its row's `pacing` extension). A replay sends no frame on
//   the wall clock and replays the recording's latencies, so its row reports the recording's pacing error.
// - Order (version 2). `seq` is one counter over everything that crosses the wire in the execution, both ways: a
//   frame sent or received, an HTTP request when it is made and its answer when its body has arrived
//   (`answered_seq`). Replay runs on the virtual media clock (replay-schedule.ts) and releases each recorded answer
//   at its place in that order: after every request, command and audio frame the recording sent before it. Version 1
//   knew only when a request was made, so its answers could not be placed; it is refused, to be recorded again.
import { z } from 'zod'
import { PacingErrorSchema } from '../reporting/extensions/pacing.ts'

export const CASSETTE_VERSION = 2
export const CASSETTE_FILE = 'cassette.json'
/** JSON and PCM together; a 90-second RUN call of two sessions is about 20 MB of audio. */
export const MAX_CASSETTE_BYTES = 128 * 1024 * 1024

/**
 * JSON data as `z.json()` takes it, checked first by one walk that copies nothing (`plainJson`). `z.json()` alone is
 * a union of six schemas: it copies every value and, for each number or object, first builds the issues of the
 * options that failed; on the frames of a recording that was most of writing and reading a cassette (about 1.2 of
 * the bundled round trip's 34 CPU s, and a fifth of everything it allocated, by a V8 CPU and sampling heap profile
 * of `vitest run --project unit src/cassettes/bundled-round-trip.integration.test.ts`). Data the walk does not take
 * goes to `z.json()` as before, which accepts or refuses it with the same path and message.
 */
const json = z.union([z.custom<z.core.util.JSONType>(plainJson), z.json()])

/**
 * Whether `value` is JSON data `z.json()` would give back unchanged: finite numbers, strings, booleans, null,
 * arrays and plain objects of them. Anything else (a `__proto__` key, which `z.json()` drops; a symbol key; a
 * null-prototype object) is left to `z.json()`.
 */
function plainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isFinite(value)
    case 'object': {
      if (value === null) return true
      if (Array.isArray(value)) {
        for (const item of value) if (!plainJson(item)) return false
        return true
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false
      const record = value as Record<string, unknown>
      for (const key in record) if (key === '__proto__' || !plainJson(record[key])) return false
      return Object.getOwnPropertySymbols(record).length === 0
    }
    default:
      return false
  }
}

/** Where removed audio lives: a byte range of one PCM file beside cassette.json, with its sha256 (hex). */
export const AudioRefSchema = z.strictObject({
  file: z.string().regex(/^[a-z0-9_.-]+\.pcm$/, 'must be a .pcm file name beside cassette.json'),
  offset: z.int().nonnegative(),
  bytes: z.int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
})
export type AudioRef = z.infer<typeof AudioRefSchema>

export const FrameSchema = z.strictObject({
  seq: z.int().nonnegative(),
  direction: z.enum(['sent', 'received']),
  /** The session clock (media clock) when the frame was sent or received. */
  at_ms: z.number(),
  /** The event as JSON, its audio field removed when `audio` is set. */
  event: z.record(z.string(), json),
  audio: AudioRefSchema.optional(),
})
export type CassetteFrame = z.infer<typeof FrameSchema>

export const SessionRecordSchema = z.strictObject({
  /** "assistant" or "caller" (RUN's simulated caller). */
  label: z.string().min(1),
  frames: z.array(FrameSchema),
})
export type SessionRecord = z.infer<typeof SessionRecordSchema>

const BodySchema = z.strictObject({
  content_type: z.string().nullable(),
  /** Parsed JSON, or the text; null for no body or when `audio` holds it. */
  json: json.optional(),
  text: z.string().optional(),
  audio: AudioRefSchema.optional(),
})
export type HttpBody = z.infer<typeof BodySchema>

export const HttpExchangeSchema = z.strictObject({
  /** When the request was made (the execution's one order, see the header comment). */
  seq: z.int().nonnegative(),
  /** When its answer had arrived, body and all, in the same order; replay releases the answer there. */
  answered_seq: z.int().nonnegative(),
  /**
   * The client gave up before an answer came (the call ended with the request in flight, or its timeout passed):
   * nothing was answered (`status` 0, no body) and `answered_seq` is when it gave up. Replay holds such a request
   * unanswered and, if the client has not given up by that place, answers 408 there (no client retries it).
   */
  aborted: z.literal(true).optional(),
  /**
   * With `aborted`: the request did not end because its client gave up (its signal was never aborted, nothing timed
   * out) but because the connection failed (reset, closed by the other side): a failure the harness retries, unlike
   * a timeout. Replay fails the request the same way there (it drops the connection), so the harness retries it
   * where the recording did instead of waiting for a retry that never comes.
   */
  connection_failed: z.literal(true).optional(),
  method: z.string(),
  /** Path and query, never the host. */
  path: z.string(),
  request: BodySchema,
  status: z.int(),
  response: BodySchema,
  /** How long the answer took on the wall clock, for the record (replay places answers by `answered_seq`). */
  duration_ms: z.number().nonnegative(),
})
export type HttpExchange = z.infer<typeof HttpExchangeSchema>

export const CassetteHeaderSchema = z.strictObject({
  cassette_version: z.literal(CASSETTE_VERSION),
  id: z.string().min(1),
  live_evals_version: z.string(),
  openai_sdk_version: z.string(),
  phase: z.enum(['crawl', 'walk', 'run']),
  architecture: z.string(),
  trial: z.int().positive().nullable(),
  scenario_id: z.string(),
  scenario_hash: z.string(),
  /** sha256 of the assistant session's session.start configuration as sent; null when none was sent. */
  assistant_hash: z.string().nullable(),
  models: z.record(z.string(), z.string()),
  /** The settings that change what is sent or when (timeouts, clock, simulation); reported on replay. */
  settings: z.record(z.string(), json),
  recorded_at: z.string(),
})
export type CassetteHeader = z.infer<typeof CassetteHeaderSchema>

export const CassetteSchema = z.strictObject({
  header: CassetteHeaderSchema,
  sessions: z.array(SessionRecordSchema),
  http: z.array(HttpExchangeSchema),
  tool_executions: json.nullable(),
  /** The recorded row's pacing extension; null when it had none (a failed call). */
  pacing: PacingErrorSchema.nullable(),
})
export type Cassette = z.infer<typeof CassetteSchema>
