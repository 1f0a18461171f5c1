// Reads the transcript-bearing events the application's memory is built from, whatever carried them: GPT-Live's
// timestamped `session.{input,output}_transcript.delta`, item-shaped `{conversation.}…_transcript.{added,done}`
// events, and turn events (`turn.created`/`turn.done`) whose transcript is only a projection of what was said.
// Everything else is not a transcript event. A transcript-shaped event with a wrong field is a problem the
// caller may report (the reference service turns it into a protocol error); this module never throws.
import { z } from 'zod'

export type TranscriptRole = 'USER' | 'ASSISTANT'

/** An actual transcript fragment: `delta` appends to its segment, `set` replaces the segment's text. */
export interface TranscriptFragment {
  kind: 'fragment'
  operation: 'delta' | 'set'
  /** The item/turn id the fragment belongs to, or null for GPT-Live's id-less deltas. */
  segmentId: string | null
  /** True for GPT-Live's own id-less `session.*_transcript.delta` (joined by timing). */
  sessionDelta: boolean
  role: TranscriptRole
  text: string
  startMs: number | null
  endMs: number | null
  eventId: string | null
}

/** A turn-derived transcript: a fallback used only where no actual transcript covers the same speech. */
export interface ProjectedTurn {
  kind: 'projected'
  turnId: string
  role: TranscriptRole
  text: string
  startMs: number | null
  endMs: number | null
  eventId: string | null
}

export type ParsedTranscriptEvent =
  | TranscriptFragment
  | ProjectedTurn
  | { kind: 'other'; eventId: string | null }
  | { kind: 'problem'; eventId: string | null; problem: string }

const TRANSCRIPT_TYPE = /^(session\.|conversation\.)?(input|output)_transcript\.(delta|added|done)$/
const TURN_TYPES = new Set(['turn.created', 'turn.done'])

const milliseconds = z.number().finite().nonnegative()
const transcriptEventSchema = z.looseObject({
  event_id: z.string().optional(),
  delta: z.string().optional(),
  text: z.string().optional(),
  item_id: z.string().min(1).optional(),
  turn_id: z.string().min(1).optional(),
  item: z.looseObject({ id: z.string().min(1).optional(), text: z.string().optional() }).optional(),
  start_ms: milliseconds.optional(),
  end_ms: milliseconds.optional(),
})
const turnEventSchema = z.looseObject({
  event_id: z.string().optional(),
  turn: z.looseObject({
    id: z.string().min(1),
    role: z.string().optional(),
    transcript: z.string().nullish(),
    start_ms: milliseconds.optional(),
    end_ms: milliseconds.optional(),
  }),
})

const eventIdOf = (event: unknown): string | null => {
  if (typeof event !== 'object' || event === null) return null
  const id = (event as { event_id?: unknown }).event_id
  return typeof id === 'string' && id !== '' ? id : null
}

function describeIssues(type: string, error: z.ZodError): string {
  const issues = error.issues.map((issue) => `${issue.path.join('.') || '(event)'}: ${issue.message}`)
  return `${type}: ${issues.join('; ')}`
}

/** Classifies one observed event for the transcript memory. */
export function parseTranscriptEvent(event: unknown): ParsedTranscriptEvent {
  const eventId = eventIdOf(event)
  const type = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined
  if (typeof type !== 'string') return { kind: 'other', eventId }
  const match = TRANSCRIPT_TYPE.exec(type)
  if (match !== null) return parseFragment(event, type, match, eventId)
  if (TURN_TYPES.has(type)) return parseTurn(event, type, eventId)
  return { kind: 'other', eventId }
}

function parseFragment(
  event: unknown,
  type: string,
  match: RegExpExecArray,
  eventId: string | null,
): ParsedTranscriptEvent {
  const parsed = transcriptEventSchema.safeParse(event)
  if (!parsed.success) return { kind: 'problem', eventId, problem: describeIssues(type, parsed.error) }
  const fields = parsed.data
  const [, prefix, direction, phase] = match
  const operation = phase === 'delta' ? 'delta' : 'set'
  const text = operation === 'delta' ? fields.delta : (fields.item?.text ?? fields.text)
  if (text === undefined) {
    const field = operation === 'delta' ? 'delta' : 'item.text or text'
    return { kind: 'problem', eventId, problem: `${type}: ${field} must be a string` }
  }
  const segmentId = fields.item_id ?? fields.item?.id ?? fields.turn_id ?? null
  return {
    kind: 'fragment',
    operation,
    segmentId,
    sessionDelta: prefix === 'session.' && operation === 'delta',
    role: direction === 'input' ? 'USER' : 'ASSISTANT',
    text,
    startMs: fields.start_ms ?? null,
    endMs: fields.end_ms ?? null,
    eventId,
  }
}

function parseTurn(event: unknown, type: string, eventId: string | null): ParsedTranscriptEvent {
  const parsed = turnEventSchema.safeParse(event)
  if (!parsed.success) return { kind: 'problem', eventId, problem: describeIssues(type, parsed.error) }
  const { turn } = parsed.data
  const role = turn.role === 'user' ? 'USER' : turn.role === 'assistant' ? 'ASSISTANT' : null
  // A turn without a transcript, or of another role, says nothing about what was said.
  if (role === null || turn.transcript == null || turn.transcript.trim() === '')
    return { kind: 'other', eventId }
  return {
    kind: 'projected',
    turnId: turn.id,
    role,
    text: turn.transcript,
    startMs: turn.start_ms ?? null,
    endMs: turn.end_ms ?? null,
    eventId,
  }
}
