// The caller side of a scenario: what the caller says and how it is produced. A caller source is the phase's
// seam for it, called before the session opens: CRAWL speaks the request (synthetic voice offline, text-to-speech
// live), WALK plays a recording. RUN's simulated caller speaks during the call instead; it joins the media
// clock as a participant (media-clock.ts), and its source prepares only what it knows beforehand.
import { z } from 'zod'
import type { Scenario } from '../../scenarios/index.ts'

export interface HeardUtterance {
  text: string
  startMs: number
  endMs: number
}

/** How the request audio was made: the row's `audio_source` is `synthetic` for both spoken kinds. */
export type CallerAudioKind = 'synthetic' | 'tts' | 'recorded'

/** The request as it will be streamed: PCM16 mono 24 kHz, lead-in silence included. */
export interface CallerAudio {
  samples: Int16Array
  /** What the caller says (the scenario's input.text, or the recording's own transcript). */
  text: string
  /** Offline: what the caller actually says and when (the offline server's hearing oracle); [] live. */
  hearing: HeardUtterance[]
  source: CallerAudioKind
  /**
   * When the caller speaks in `samples` (ms from its start, lead-in included), when known: what we synthesized,
   * or a recording's intervals measured on its clean signal. The completion window and the interaction metrics
   * use it, so noise, background talkers or a recording's trailing silence never count as caller speech. Absent:
   * the caller channel's energy decides.
   */
  callerSpeech?: { startMs: number; endMs: number }[]
  /** The recording (its path as the dataset gives it, absolute file, condition, metadata), when it is one. */
  recording?: CallerRecording
}

/** A recorded request: its path as the dataset gives it, the absolute file, condition and metadata. */
export const CallerRecordingSchema = z.strictObject({
  id: z.string(),
  path: z.string(),
  file: z.string(),
  condition: z.string(),
  metadata: z.record(z.string(), z.unknown()),
})

export type CallerRecording = z.infer<typeof CallerRecordingSchema>

export interface CallerSource {
  /** The row's `observability.interaction.audio_source` (reference: `synthetic` or `recorded`). */
  readonly audioSource: 'synthetic' | 'recorded'
  /** Called before the session opens; the audio returned is exactly what is streamed. */
  prepare(scenario: Scenario, options: { signal?: AbortSignal }): Promise<CallerAudio>
  /**
   * The recording `prepare` plays, as the dataset gives it, without reading it; undefined when the request is not
   * a recording. Called when a scenario failed before its audio was prepared: its row still names the recording
   * and its condition (condition robustness counts it as a row that did not run).
   */
  recordingOf?(scenario: Scenario): CallerRecording | undefined
}
