// Caller actions, inferred after the fact (§6): the live caller decides for itself, so what it did is read off
// the call from its transcript and the assistant's voiced audio on the one timeline. OPENING is the first
// utterance; an utterance that overlaps the assistant's voice is a BACKCHANNEL when it is a known
// acknowledgement and an INTERRUPT otherwise; the rest are SPEAK. STOP is claimed only without an observer, once
// the outcome is verified and the caller's last words are a farewell; a completion decision never relabels it.
import type { CallerAction, PlannedUtterance } from '../offline-caller.ts'

export interface SpokenSpan {
  startMs: number
  endMs: number
}

export interface CallerUtterance extends SpokenSpan {
  text: string
}

/** §6's acknowledgements, beside the persona's own backchannels. */
const KNOWN_ACKNOWLEDGEMENTS = ['mm-hmm', 'mhm', 'uh-huh', 'right', 'okay', 'got it']

/** Words that make a caller's last utterance a farewell (§6). */
const FAREWELL = /\b(bye|goodbye|thank you|thanks)\b/i

/**
 * Overlap shorter than this is relay and transcript-timing slack, not talking over someone: an utterance that
 * starts as the assistant's last syllable fades is a reply, not a barge-in.
 */
export const OVERLAP_TOLERANCE_MS = 100

const normalized = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()

export function isFarewell(text: string): boolean {
  return FAREWELL.test(text)
}

export interface ActionRules {
  /** The persona's backchannels ("Mm-hmm.", "Right."). */
  backchannels: readonly string[]
  /** No observer ran and the outcome is verified: a farewell at the end may be a STOP. */
  stopAllowed: boolean
}

function overlaps(utterance: SpokenSpan, voiced: readonly SpokenSpan[]): boolean {
  return voiced.some(
    (span) =>
      Math.min(utterance.endMs, span.endMs) - Math.max(utterance.startMs, span.startMs) >
      OVERLAP_TOLERANCE_MS,
  )
}

export function inferCallerActions(
  utterances: readonly CallerUtterance[],
  assistantVoiced: readonly SpokenSpan[],
  rules: ActionRules,
): PlannedUtterance[] {
  const acknowledgements = new Set([...rules.backchannels, ...KNOWN_ACKNOWLEDGEMENTS].map(normalized))
  return utterances.map((utterance, index) => {
    let action: CallerAction
    if (index === 0) action = 'OPENING'
    else if (rules.stopAllowed && index === utterances.length - 1 && isFarewell(utterance.text))
      action = 'STOP'
    else if (!overlaps(utterance, assistantVoiced)) action = 'SPEAK'
    else action = acknowledgements.has(normalized(utterance.text)) ? 'BACKCHANNEL' : 'INTERRUPT'
    return { text: utterance.text, startMs: utterance.startMs, endMs: utterance.endMs, action }
  })
}

export function countActions(plan: readonly PlannedUtterance[]): Partial<Record<CallerAction, number>> {
  const counts: Partial<Record<CallerAction, number>> = {}
  for (const utterance of plan) counts[utterance.action] = (counts[utterance.action] ?? 0) + 1
  return counts
}
