// Argument validation and normalization for the restaurant tools. Every message here is part of the
// compatibility contract (the model sees it as `{ok: false, error}`), so the wording is fixed.
import { ToolArgumentError } from '../../runtime/tool-executor.ts'

/** A restaurant call the model got wrong or that the application denies. */
export class RestaurantToolError extends ToolArgumentError {
  override name = 'RestaurantToolError'
}

/** Date, time, party and optional seating after normalization. */
export interface TableRequest {
  date: string
  time: string
  party_size: number
  seating?: string
}

/** A non-empty string after trimming; the trimmed value is what gets stored. */
export function requiredText(args: Record<string, unknown>, field: string, tool: string): string {
  const value = args[field]
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RestaurantToolError(`${tool} requires a nonempty ${field}`)
  }
  return value.trim()
}

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/
const clockTime = /^(\d{1,2}):(\d{1,2})$/

/** A real calendar date as YYYY-MM-DD (so 2026-02-30 is refused), or null. */
function calendarDate(text: string): string | null {
  const match = isoDate.exec(text)
  if (!match) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (year < 1 || month < 1 || month > 12 || day < 1) return null
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0
  return day <= daysInMonth ? text : null
}

/** A 24-hour clock time (one or two digits per part, as `%H:%M` accepts) as HH:MM, or null. */
function clockTimeText(text: string): string | null {
  const match = clockTime.exec(text)
  if (!match) return null
  const [hour, minute] = [Number(match[1]), Number(match[2])]
  if (hour > 23 || minute > 59) return null
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`
}

/** Date and time, both required, both normalized. */
export function dateAndTime(args: Record<string, unknown>, tool: string): { date: string; time: string } {
  const dateText = requiredText(args, 'date', tool)
  const timeText = requiredText(args, 'time', tool)
  const date = calendarDate(dateText)
  const time = clockTimeText(timeText)
  if (date === null || time === null) {
    throw new RestaurantToolError(`${tool} requires an ISO date and HH:MM time`)
  }
  return { date, time }
}

/** A whole number of guests, at least one; booleans and numeric strings are refused. */
export function partySize(args: Record<string, unknown>, tool: string): number {
  const value = args.party_size
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RestaurantToolError(`${tool} requires a positive party_size`)
  }
  return value
}

/**
 * Optional seating: absent or null means "no preference"; otherwise a non-empty string, stored
 * trimmed and case-folded (upper then lower folds forms such as "ß" the way a casefold does).
 */
export function optionalSeating(args: Record<string, unknown>, tool: string): string | undefined {
  const value = args.seating
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RestaurantToolError(`${tool} requires nonempty seating when provided`)
  }
  return value.trim().toUpperCase().toLowerCase()
}

/** The common date/time/party/seating part of check_availability and create_reservation. */
export function tableRequest(args: Record<string, unknown>, tool: string): TableRequest {
  const { date, time } = dateAndTime(args, tool)
  const party_size = partySize(args, tool)
  const seating = optionalSeating(args, tool)
  return seating === undefined ? { date, time, party_size } : { date, time, party_size, seating }
}
