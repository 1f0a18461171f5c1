// How a caller says a structured value aloud, for correction steps: the grader must recognise "August 8" for
// 2026-08-08, "four" for 4 and "8 p.m." for 20:00 in a caller's transcript. Every form is compared in the
// normalized text form of matching.ts (lower case, punctuation as spaces), as whole words.
import { normalizeArgumentText } from '../matching.ts'

const MONTHS = [
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
const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
]
const ORDINAL_SUFFIX = (day: number) =>
  day % 10 === 1 && day !== 11
    ? 'st'
    : day % 10 === 2 && day !== 12
      ? 'nd'
      : day % 10 === 3 && day !== 13
        ? 'rd'
        : 'th'

function dateForms(year: string, month: number, day: number): string[] {
  const name = MONTHS[month - 1]
  if (name === undefined || day < 1 || day > 31) return []
  const ordinal = `${day}${ORDINAL_SUFFIX(day)}`
  return [
    `${name} ${day}`,
    `${name} ${ordinal}`,
    `${day} ${name}`,
    `${ordinal} of ${name}`,
    `${year}-${month}-${day}`,
  ]
}

function timeForms(hour: number, minute: number): string[] {
  if (hour > 23 || minute > 59) return []
  const twelve = hour % 12 === 0 ? 12 : hour % 12
  const suffixes = hour < 12 ? ['am', 'a m', 'in the morning'] : ['pm', 'p m', 'in the evening']
  const clock =
    minute === 0 ? [`${twelve}`, `${twelve} 00`] : [`${twelve} ${String(minute).padStart(2, '0')}`]
  const word = NUMBER_WORDS[twelve]
  const spoken = minute === 0 && word !== undefined ? [word] : []
  const forms = [...clock, ...spoken].flatMap((base) => suffixes.map((suffix) => `${base} ${suffix}`))
  // "8pm" is one word once normalized.
  forms.push(`${twelve}${hour < 12 ? 'am' : 'pm'}`)
  forms.push(
    `${String(hour).padStart(2, '0')} ${String(minute).padStart(2, '0')}`,
    `${hour} ${String(minute).padStart(2, '0')}`,
  )
  if (minute === 0) forms.push(`${twelve} o clock`)
  return forms
}

/** The normalized ways a value may be said; always includes the value's own text. */
export function spokenForms(value: unknown): string[] {
  const forms = new Set<string>([normalizeArgumentText(value)])
  if (typeof value === 'number' && Number.isInteger(value)) {
    const word = NUMBER_WORDS[value]
    if (word !== undefined) forms.add(word)
  }
  if (typeof value === 'string') {
    const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
    if (date)
      for (const form of dateForms(date[1] as string, Number(date[2]), Number(date[3]))) forms.add(form)
    const time = /^(\d{1,2}):(\d{2})$/.exec(value)
    if (time)
      for (const form of timeForms(Number(time[1]), Number(time[2]))) forms.add(normalizeArgumentText(form))
    if (/^\d+$/.test(value)) {
      const word = NUMBER_WORDS[Number(value)]
      if (word !== undefined) forms.add(word)
    }
  }
  forms.delete('')
  return [...forms]
}

/** Whether `text` says `value` in one of its spoken forms, as whole words. */
export function mentionsValue(text: string, value: unknown): boolean {
  const padded = ` ${normalizeArgumentText(text)} `
  return spokenForms(value).some((form) => padded.includes(` ${form} `))
}
