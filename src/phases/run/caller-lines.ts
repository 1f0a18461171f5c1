// What the offline scripted caller says for an agenda item that has no `response_hint`. An item's `commitment` and
// `trigger_condition` are stage directions for whoever plays the caller ("Confirm the booking, then end the call."):
// said aloud, they are a new request the assistant acts on. So the caller phrases a line of its own, the way a
// caller would, from the item's action, its facts and what the caller said before: a closing for `finish`, the
// request said again for an item that asks again, the corrected value for `correct`, the facts for an answer.
// It reads the commitment only to tell an "ask again" item from an answer; it never says a word of it.
import type { CallerAgendaItem, SimulationParameters } from '../../scenarios/simulation.ts'

type KnownFacts = SimulationParameters['known_facts']
type FactValue = KnownFacts[string]

const NUMBER_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']

/** Prefixes that mark another variant of the same fact (the superseded or an alternative value). */
const VARIANT_PREFIX = /^(?:wrong|superseded|old|previous|first_choice|alternative|alternate|new|preferred)_/

const SUPERSEDED_PREFIXES = ['wrong', 'superseded', 'old', 'previous']
const SUPERSEDED_PREFIX = new RegExp(`^(?:${SUPERSEDED_PREFIXES.join('|')})_`)

/** A commitment that asks the caller to press the same request again rather than answer something new. */
const ASKS_AGAIN =
  /\b(?:again|once more|one more time|insist\w*|exception|push back|press(?:es)? (?:on|the point)|keep asking)\b/i

const FAREWELL = /\b(?:bye|goodbye)\b/i
const GREETING = /^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening))(?:\s+there)?\s*[,.!]\s*/i

function spokenValue(value: FactValue): string {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= NUMBER_WORDS.length) {
    return NUMBER_WORDS[value - 1] as string
  }
  return String(value)
}

/**
 * A fact as a caller says it, with the preposition its kind takes ("under Okafor", "on August 8", "at 8 p.m.",
 * "for four"); null for a yes/no fact, which is a circumstance the caller knows rather than something it says.
 */
export function spokenFact(key: string, value: FactValue): string | null {
  if (typeof value === 'boolean') return null
  const kind = key.replace(VARIANT_PREFIX, '')
  const said = spokenValue(value)
  if (/(?:^|_)id$/.test(kind)) return said
  if (/name/.test(kind)) return `under ${said}`
  if (/date|day/.test(kind)) return `on ${said}`
  if (/time/.test(kind)) return `at ${said}`
  if (/party|guests|people|size/.test(kind)) return `for ${said}`
  return said
}

function sentence(text: string): string {
  const trimmed = text.trim()
  const capitalized = trimmed.charAt(0).toUpperCase() + trimmed.slice(1)
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`
}

function factPhrases(item: CallerAgendaItem, facts: KnownFacts): string[] {
  return item.facts.flatMap((key) => {
    const value = facts[key]
    const phrase = value === undefined ? null : spokenFact(key, value)
    return phrase === null ? [] : [phrase]
  })
}

/** The superseded value of a corrected fact: `wrong_<key>` (or another variant prefix) in the known facts. */
function supersededValue(key: string, facts: KnownFacts): FactValue | undefined {
  for (const prefix of SUPERSEDED_PREFIXES) {
    const value = facts[`${prefix}_${key}`]
    if (value !== undefined) return value
  }
  return undefined
}

function correctionLine(item: CallerAgendaItem, facts: KnownFacts): string {
  // The superseded value is said with the fact it supersedes, not as a fact of its own.
  const parts = item.facts.flatMap((key) => {
    if (SUPERSEDED_PREFIX.test(key)) return []
    const value = facts[key]
    const phrase = value === undefined ? null : spokenFact(key, value)
    if (phrase === null) return []
    const superseded = supersededValue(key, facts)
    return [superseded === undefined ? phrase : `not ${spokenValue(superseded)}, it should be ${phrase}`]
  })
  if (parts.length === 0) return 'Sorry, let me correct that.'
  return sentence(`Sorry, I got that wrong: ${parts.join('; and ')}`)
}

function answerLine(item: CallerAgendaItem, facts: KnownFacts): string {
  const phrases = factPhrases(item, facts)
  if (phrases.length === 0) return 'Okay.'
  if (phrases.length === 1) return sentence(`It's ${phrases[0]}`)
  return sentence(`That's ${phrases.join(', ')}`)
}

/** The opening request said again, without its greeting. */
function repeatLine(opening: string): string {
  const request = opening.replace(GREETING, '').trim()
  if (request === '') return 'I have to ask again, please.'
  return sentence(`I have to ask again: ${request.charAt(0).toLowerCase()}${request.slice(1)}`)
}

function closingLine(said: readonly string[]): string {
  return said.some((line) => FAREWELL.test(line)) ? 'Bye now.' : 'Thanks for your help. Goodbye.'
}

/**
 * The caller's line for an item without a response hint. `said` is what the caller said before it, the opening
 * first: a closing after a goodbye already said is a short one, and a request asked again is the opening's.
 */
export function derivedCallerLine(
  item: CallerAgendaItem,
  parameters: Pick<SimulationParameters, 'known_facts' | 'persona'>,
  said: readonly string[],
): string {
  const facts = parameters.known_facts
  switch (item.action) {
    case 'finish':
      return closingLine(said)
    case 'backchannel':
      return parameters.persona.backchannels[0] ?? 'Mm-hmm.'
    case 'correct':
      return correctionLine(item, facts)
    case 'interrupt': {
      const phrases = factPhrases(item, facts)
      return phrases.length === 0
        ? 'Sorry to cut in.'
        : sentence(`Sorry to cut in: what about ${phrases.join(', ')}?`)
    }
    default:
      return ASKS_AGAIN.test(item.commitment) ? repeatLine(said[0] ?? '') : answerLine(item, facts)
  }
}

const normalized = (text: string) =>
  text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^a-z0-9']+/g, ' ')
    .trim()

/**
 * The agenda's stage directions (commitments and trigger conditions) that `text` says: each one whose words appear
 * in it, in order, compared without case or punctuation. A caller line must never contain any.
 */
export function spokenStageDirections(
  text: string,
  agenda: readonly Pick<CallerAgendaItem, 'commitment' | 'trigger_condition'>[],
): string[] {
  const line = ` ${normalized(text)} `
  return agenda.flatMap((item) =>
    [item.commitment, item.trigger_condition].filter((direction) => {
      const words = normalized(direction)
      return words.includes(' ') && line.includes(` ${words} `)
    }),
  )
}
