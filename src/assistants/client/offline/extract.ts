// Reading booking details out of caller-visible text, the way the offline stand-in for the voice
// model does. Within one text the LAST mention wins, so in-utterance corrections ("August 7, sorry,
// August 6"; "two, actually four") take effect; across texts the later one wins, so a value in the caller's
// utterance beats the context and a correction in a later turn beats the turn it corrects.

export interface BookingDetails {
  guest_name?: string
  date?: string
  time?: string
  party_size?: number
  seating?: string
}

const months = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

const numberWords = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']

// A name is one to three capitalized words; months and number words are never names.
const nameWords = "[A-Z][A-Za-z'’-]*(?:\\s+[A-Z][A-Za-z'’-]*){0,2}"
// No pattern may carry the `i` flag: it would make `[A-Z]` in the name match any word ("The caller is Nguyen
// and wants…" would name "Nguyen and wants"). Lead-in words that may come in any case are spelled out per letter.
const anyCase = (words: string) =>
  words.replace(/[a-z]/gi, (letter) => `[${letter.toUpperCase()}${letter.toLowerCase()}]`)
const namePatterns = [
  new RegExp(`\\b[Uu]nder\\s+(${nameWords})`, 'g'),
  new RegExp(`\\b[Ff]or\\s+(${nameWords})\\s+on\\b`, 'g'),
  new RegExp(`\\b${anyCase('caller is')}\\s+(${nameWords})`, 'g'),
  new RegExp(`(?:^|[.!?]\\s+)(${nameWords})\\s+requested\\b`, 'g'),
]

const datePattern = new RegExp(`\\b(${months.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'gi')
const timePattern = /\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\b\.?/gi
// A count after "for"/"actually", unless it is really a clock time ("for 7 p.m.", "for 6:30").
const partyPattern = new RegExp(
  `\\b(?:for|actually)\\s+(\\d+|${numberWords.join('|')})\\b(?!\\s*(?:[ap]\\.?\\s*m\\b|:))`,
  'gi',
)
const seatingPattern = /\bpatio\b/gi

/** The last match of a global pattern in the text, or null. */
function lastMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  let last: RegExpExecArray | null = null
  for (const match of text.matchAll(pattern)) last = match
  return last
}

function isNameWord(word: string): boolean {
  const lower = word.toLowerCase()
  return !months.includes(lower) && !numberWords.includes(lower)
}

/** The name from the pattern match that ends latest in the text. */
function extractName(text: string): string | undefined {
  let best: { end: number; name: string } | undefined
  for (const pattern of namePatterns) {
    for (const match of text.matchAll(pattern)) {
      // Keep the leading words that are real name words ("Lopez August" would keep "Lopez").
      const words = (match[1] ?? '').split(/\s+/)
      const kept: string[] = []
      for (const word of words) {
        if (!isNameWord(word)) break
        kept.push(word)
      }
      if (kept.length === 0) continue
      const end = match.index + match[0].length
      if (best === undefined || end >= best.end) best = { end, name: kept.join(' ') }
    }
  }
  return best?.name
}

function extractDate(text: string, year: number): string | undefined {
  const match = lastMatch(datePattern, text)
  if (!match) return undefined
  const month = months.indexOf((match[1] ?? '').toLowerCase()) + 1
  const day = Number(match[2])
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

function extractTime(text: string): string | undefined {
  const match = lastMatch(timePattern, text)
  if (!match) return undefined
  let hour = Number(match[1])
  const minute = Number(match[2] ?? '0')
  const afternoon = (match[3] ?? '').toLowerCase() === 'p'
  if (afternoon && hour < 12) hour += 12
  if (!afternoon && hour === 12) hour = 0
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`
}

function extractPartySize(text: string): number | undefined {
  const match = lastMatch(partyPattern, text)
  if (!match) return undefined
  const token = (match[1] ?? '').toLowerCase()
  const word = numberWords.indexOf(token)
  return word >= 0 ? word + 1 : Number(token)
}

/** Every detail one text mentions. */
export function extractDetails(text: string, referenceYear: number): BookingDetails {
  const details: BookingDetails = {}
  const guest_name = extractName(text)
  const date = extractDate(text, referenceYear)
  const time = extractTime(text)
  const party_size = extractPartySize(text)
  if (guest_name !== undefined) details.guest_name = guest_name
  if (date !== undefined) details.date = date
  if (time !== undefined) details.time = time
  if (party_size !== undefined) details.party_size = party_size
  if (lastMatch(seatingPattern, text)) details.seating = 'patio'
  return details
}

/**
 * Details from several texts in the order they were said, each overriding the earlier ones field by field
 * (the context first, then the caller's turns: a later correction wins).
 */
export function mergedDetails(texts: readonly string[], referenceYear: number): BookingDetails {
  return Object.assign({}, ...texts.map((text) => extractDetails(text, referenceYear))) as BookingDetails
}

/** The last reservation id (R-digits) mentioned, uppercased, or null. */
export function lastReservationId(text: string): string | null {
  const match = lastMatch(/\bR-\d+\b/gi, text)
  return match ? match[0].toUpperCase() : null
}
