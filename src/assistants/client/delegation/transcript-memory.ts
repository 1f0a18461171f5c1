// The application's own memory of the call: timestamped caller and assistant segments built from what
// GPT-Live transcribes, so a client delegation (which names no task) can hand its backend the conversation.
// Each delegation consumes only what the previous ones have not seen. Rules:
// - history from `initial_items` seeds segments `history:<index>` at [0, index+1] ms;
// - an event_id seen before is ignored (replays), but equal text under distinct ids is kept ("no", "no");
// - GPT-Live's id-less deltas join the latest live segment of their role when they are close in time;
// - a turn-derived (projected) transcript is only a fallback: actual text replaces it, never the reverse.
import { renderSrt, type SrtEntry } from './srt.ts'
import {
  type ProjectedTurn,
  parseTranscriptEvent,
  type TranscriptFragment,
  type TranscriptRole,
} from './transcript-events.ts'

/** An id-less delta joins the latest live segment if it starts at most this long after that segment ends. */
export const LIVE_JOIN_GAP_MS = 500
/** A new id matches a segment of the other kind (projected vs actual) only if their starts are this close. */
export const KIND_MATCH_WINDOW_MS = 1_000

export interface TranscriptSegment {
  id: string
  role: TranscriptRole
  startMs: number
  endMs: number
  text: string
  /** How many characters of `text` earlier delegations already received. */
  delivered: number
  /** True for a turn-derived fallback, false for an actual transcript. */
  projected: boolean
}

export type ObserveResult = 'recorded' | 'duplicate' | 'ignored' | { problem: string }

export class TranscriptMemory {
  readonly #segments: TranscriptSegment[] = []
  /** Every id a segment is known by (its own, and the ids of segments merged into it). */
  readonly #byId = new Map<string, TranscriptSegment>()
  readonly #seenEventIds = new Set<string>()
  /** The latest segment opened by an id-less GPT-Live delta, per role. */
  readonly #latestLive = new Map<TranscriptRole, TranscriptSegment>()
  /** The furthest end seen: where a fragment without timing is placed. */
  #clockMs = 0
  #anonymous = 0

  /** Seeds the conversation history a session started with (GPT-Live `initial_items`). */
  seedHistory(initialItems: readonly unknown[]): void {
    initialItems.forEach((item, index) => {
      const role = historyRole(item)
      const text = role === null ? '' : historyText(item)
      if (role === null || text.trim() === '') return
      this.#add({
        id: `history:${index}`,
        role,
        startMs: 0,
        endMs: index + 1,
        text,
        delivered: 0,
        projected: false,
      })
    })
  }

  /** Records one observed event; non-transcript events are ignored. Never throws. */
  observe(event: unknown): ObserveResult {
    const parsed = parseTranscriptEvent(event)
    if (parsed.eventId !== null) {
      if (this.#seenEventIds.has(parsed.eventId)) return 'duplicate'
      this.#seenEventIds.add(parsed.eventId)
    }
    switch (parsed.kind) {
      case 'other':
        return 'ignored'
      case 'problem':
        return { problem: parsed.problem }
      case 'fragment':
        this.#recordFragment(parsed)
        return 'recorded'
      case 'projected':
        this.#recordProjected(parsed)
        return 'recorded'
    }
  }

  /** A copy of every segment, in time order. */
  segments(): TranscriptSegment[] {
    return this.#ordered().map((segment) => ({ ...segment }))
  }

  /**
   * The part of the conversation no earlier call has received, as SRT (empty when nothing is new), and
   * marks it delivered. Projected segments overlapping an actual one of the same role are left out.
   */
  consumeSrt(): string {
    const ordered = this.#ordered()
    const actual = ordered.filter((segment) => !segment.projected)
    const entries: SrtEntry[] = []
    for (const segment of ordered) {
      if (
        segment.projected &&
        actual.some((other) => other.role === segment.role && overlaps(segment, other))
      ) {
        continue
      }
      const suffix = segment.text.slice(segment.delivered).trim()
      segment.delivered = segment.text.length
      if (suffix !== '')
        entries.push({ role: segment.role, startMs: segment.startMs, endMs: segment.endMs, text: suffix })
    }
    return renderSrt(entries)
  }

  #recordFragment(fragment: TranscriptFragment): void {
    const { startMs, endMs } = this.#timing(fragment.startMs, fragment.endMs)
    if (fragment.segmentId === null) {
      const latest = this.#latestLive.get(fragment.role)
      if (latest !== undefined && startMs <= latest.endMs + LIVE_JOIN_GAP_MS && endMs >= latest.startMs) {
        applyText(latest, fragment.operation, fragment.text)
        widen(latest, startMs, endMs)
        return
      }
      const id = `live:${fragment.eventId ?? `anonymous-${++this.#anonymous}`}`
      const segment = this.#openActual(id, fragment.role, fragment.text, startMs, endMs)
      if (segment.id.startsWith('live:')) this.#latestLive.set(fragment.role, segment)
      return
    }
    const existing = this.#byId.get(fragment.segmentId)
    if (existing !== undefined && !existing.projected) {
      applyText(existing, fragment.operation, fragment.text)
      widen(existing, startMs, endMs)
      return
    }
    this.#openActual(fragment.segmentId, fragment.role, fragment.text, startMs, endMs)
  }

  /** A new actual segment, or a projected one of the same speech turned actual (its delivery starts over). */
  #openActual(
    id: string,
    role: TranscriptRole,
    text: string,
    startMs: number,
    endMs: number,
  ): TranscriptSegment {
    const projected = this.#matchOtherKind(role, startMs, text, true)
    if (projected === undefined) {
      return this.#add({
        id,
        role,
        startMs,
        endMs: Math.max(endMs, startMs + 1),
        text,
        delivered: 0,
        projected: false,
      })
    }
    projected.id = id
    projected.projected = false
    projected.text = text
    projected.delivered = 0
    widen(projected, startMs, endMs)
    this.#byId.set(id, projected)
    return projected
  }

  #recordProjected(turn: ProjectedTurn): void {
    const id = `turn:${turn.turnId}`
    const { startMs, endMs } = this.#timing(turn.startMs, turn.endMs)
    const existing = this.#byId.get(id) ?? this.#matchOtherKind(turn.role, startMs, turn.text, false)
    if (existing === undefined) {
      this.#add({
        id,
        role: turn.role,
        startMs,
        endMs: Math.max(endMs, startMs + 1),
        text: turn.text,
        delivered: 0,
        projected: true,
      })
      return
    }
    this.#byId.set(id, existing)
    // Projected text never overwrites an actual transcript; it may still widen its times.
    if (existing.projected) applyText(existing, 'set', turn.text)
    widen(existing, startMs, endMs)
  }

  /** A segment of the other kind that is the same speech: same role, starts close, one text contains the other. */
  #matchOtherKind(role: TranscriptRole, startMs: number, text: string, wantProjected: boolean) {
    const needle = normalize(text)
    if (needle === '') return undefined
    return this.#segments.find((segment) => {
      if (segment.projected !== wantProjected || segment.role !== role) return false
      if (Math.abs(segment.startMs - startMs) > KIND_MATCH_WINDOW_MS) return false
      const hay = normalize(segment.text)
      return hay !== '' && (hay.includes(needle) || needle.includes(hay))
    })
  }

  #add(segment: TranscriptSegment): TranscriptSegment {
    this.#segments.push(segment)
    this.#byId.set(segment.id, segment)
    this.#clockMs = Math.max(this.#clockMs, segment.endMs)
    return segment
  }

  /** Event timing, or (for events without it) the end of what was heard so far. */
  #timing(startMs: number | null, endMs: number | null): { startMs: number; endMs: number } {
    const start = startMs ?? endMs ?? this.#clockMs
    const end = Math.max(endMs ?? start, start)
    this.#clockMs = Math.max(this.#clockMs, end)
    return { startMs: start, endMs: end }
  }

  #ordered(): TranscriptSegment[] {
    return [...this.#segments].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs)
  }
}

function applyText(segment: TranscriptSegment, operation: 'delta' | 'set', text: string): void {
  if (operation === 'delta') {
    segment.text += text
    return
  }
  // A replacement keeps as delivered only the prefix it shares with what was delivered.
  segment.delivered = Math.min(segment.delivered, sharedPrefixLength(segment.text, text))
  segment.text = text
}

/** Times only ever widen; a segment always lasts at least 1 ms. */
function widen(segment: TranscriptSegment, startMs: number, endMs: number): void {
  segment.startMs = Math.min(segment.startMs, startMs)
  segment.endMs = Math.max(segment.endMs, endMs, segment.startMs + 1)
}

function overlaps(a: TranscriptSegment, b: TranscriptSegment): boolean {
  return a.startMs < b.endMs && b.startMs < a.endMs
}

function sharedPrefixLength(a: string, b: string): number {
  let index = 0
  while (index < a.length && index < b.length && a[index] === b[index]) index += 1
  return index
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase()
}

function historyRole(item: unknown): TranscriptRole | null {
  const role = typeof item === 'object' && item !== null ? (item as { role?: unknown }).role : undefined
  return role === 'user' ? 'USER' : role === 'assistant' ? 'ASSISTANT' : null
}

/** The texts of a history item's content parts, joined by a space. */
function historyText(item: unknown): string {
  const content = (item as { content?: unknown }).content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part) =>
      typeof part === 'object' && part !== null ? (part as { text?: unknown }).text : undefined,
    )
    .filter((text): text is string => typeof text === 'string')
    .join(' ')
}
