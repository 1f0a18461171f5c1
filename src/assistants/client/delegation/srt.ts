// SubRip (SRT) rendering of transcript entries: the timestamped form in which the application hands the
// conversation to its backend ("n", "HH:MM:SS,mmm --> HH:MM:SS,mmm", "ROLE: text", blank line between).
import type { TranscriptRole } from './transcript-events.ts'

export interface SrtEntry {
  role: TranscriptRole
  startMs: number
  endMs: number
  text: string
}

/** `HH:MM:SS,mmm` for a non-negative millisecond offset (hours may exceed 99 without wrapping). */
export function srtTimestamp(ms: number): string {
  const total = Math.max(0, Math.round(ms))
  const pad = (value: number, width: number) => String(value).padStart(width, '0')
  const hours = Math.floor(total / 3_600_000)
  const minutes = Math.floor((total % 3_600_000) / 60_000)
  const seconds = Math.floor((total % 60_000) / 1000)
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)},${pad(total % 1000, 3)}`
}

/** Numbered SRT blocks, or the empty string when there is nothing to render. */
export function renderSrt(entries: readonly SrtEntry[]): string {
  return entries
    .map(
      (entry, index) =>
        `${index + 1}\n${srtTimestamp(entry.startMs)} --> ${srtTimestamp(entry.endMs)}\n${entry.role}: ${entry.text}`,
    )
    .join('\n\n')
}

const TIMESTAMP = /^(\d+):(\d{2}):(\d{2}),(\d{3})$/
const BLOCK = /^\d+\n(\S+) --> (\S+)\n(USER|ASSISTANT): ([\s\S]*)$/
// A new block starts after a blank line with its number and timing line (text itself may hold blank lines).
const BLOCK_BREAK = /\n\n(?=\d+\n\d+:\d{2}:\d{2},\d{3} --> )/

function parseTimestamp(text: string): number | null {
  const match = TIMESTAMP.exec(text)
  if (match === null) return null
  const [, hours, minutes, seconds, millis] = match.map(Number)
  return (((hours ?? 0) * 60 + (minutes ?? 0)) * 60 + (seconds ?? 0)) * 1000 + (millis ?? 0)
}

/** Reads back what renderSrt wrote; throws naming the block when the text is not our SRT. */
export function parseSrt(srt: string): SrtEntry[] {
  if (srt.trim() === '') return []
  return srt
    .trim()
    .split(BLOCK_BREAK)
    .map((block, index) => {
      const match = BLOCK.exec(block)
      const startMs = match === null ? null : parseTimestamp(match[1] ?? '')
      const endMs = match === null ? null : parseTimestamp(match[2] ?? '')
      if (match === null || startMs === null || endMs === null) {
        throw new Error(
          `Transcript SRT block ${index + 1} is not "n", "HH:MM:SS,mmm --> HH:MM:SS,mmm", "ROLE: text": ${JSON.stringify(block.slice(0, 80))}`,
        )
      }
      return { role: match[3] as SrtEntry['role'], startMs, endMs, text: match[4] ?? '' }
    })
}
