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
