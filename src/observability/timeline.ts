// One clock for everything observed in a session: the session timeline, in milliseconds of caller audio sent.
// Real-time mode reads the wall clock since the first frame was sent; virtual mode (offline, no pacing) counts
// the audio sent, which is also the offline server's clock, so a run is the same whatever the machine did.
// Caller frames are placed where they were sent; assistant audio is placed at its arrival time, back to back
// (ConversationRecorder.play), the way a listener hears it. Speech intervals come from the audio itself.

import { ConversationRecorder } from '../audio/conversation.ts'
import { SAMPLE_RATE_HZ } from '../audio/pcm.ts'
import {
  DEFAULT_SPEECH_ACTIVITY,
  detectSpeech,
  rmsDbfs,
  type SpeechInterval,
} from '../audio/speech-activity.ts'

export type ClockMode = 'virtual' | 'real_time'

export interface TimelineOptions {
  mode: ClockMode
  sampleRateHz?: number
  /** Monotonic wall clock in ms (real-time mode); defaults to performance.now(). */
  wallClock?: () => number
}

export interface TranscriptFragment {
  role: 'user' | 'assistant'
  text: string
  /** Times the service gave the fragment (its own audio clock); null when absent. */
  startMs: number | null
  endMs: number | null
  receivedAtMs: number
}

export interface TimelineLine {
  role: 'user' | 'assistant'
  text: string
  startMs: number
  endMs: number
}

export interface DelegationSpan {
  id: string
  startMs: number
  /** When its result was published (or the delegation ended without one); null while open. */
  settledMs: number | null
}

export interface UsageSample {
  seconds: number
  atMs: number
}

/** Fragments closer than this (ms) belong to one transcript line. */
const LINE_GAP_MS = 300

export class SessionTimeline {
  readonly mode: ClockMode
  readonly sampleRateHz: number
  readonly recorder: ConversationRecorder
  readonly transcripts: TranscriptFragment[] = []
  readonly delegations: DelegationSpan[] = []
  readonly usage: UsageSample[] = []
  readonly #wallClock: () => number
  #wallStartMs: number | null = null
  #sentSamples = 0
  /** Bumped by every audio change, so the measured speech intervals are reused until the audio changes. */
  #audioVersion = 0
  #speech: { version: number; intervals: { caller: SpeechInterval[]; assistant: SpeechInterval[] } } | null =
    null

  constructor(options: TimelineOptions) {
    this.mode = options.mode
    this.sampleRateHz = options.sampleRateHz ?? SAMPLE_RATE_HZ
    this.recorder = new ConversationRecorder({ sampleRateHz: this.sampleRateHz })
    this.#wallClock = options.wallClock ?? (() => performance.now())
  }

  /** Now on the session clock. Before the first frame it is 0 in both modes. */
  nowMs(): number {
    if (this.mode === 'virtual') return (this.#sentSamples * 1000) / this.sampleRateHz
    return this.#wallStartMs === null ? 0 : this.#wallClock() - this.#wallStartMs
  }

  /**
   * How much caller audio was sent so far, in ms: the service's own clock for anything sent now (it stamps its
   * events with the audio it received, and the socket keeps frames in order). Equal to nowMs() in virtual mode;
   * in real time the wall clock may run ahead of it (connection set-up, late frames).
   */
  audioSentMs(): number {
    return (this.#sentSamples * 1000) / this.sampleRateHz
  }

  /** Caller audio sent now: placed on the caller channel at the current time. Returns where it was placed. */
  callerAudioSent(samples: Int16Array): { startMs: number; endMs: number } {
    if (this.#wallStartMs === null) this.#wallStartMs = this.#wallClock()
    const startMs = this.nowMs()
    this.recorder.place('caller', startMs, samples)
    this.#sentSamples += samples.length
    this.#audioVersion += 1
    return { startMs, endMs: startMs + (samples.length * 1000) / this.sampleRateHz }
  }

  /** Assistant audio that arrived at `arrivalMs`, queued after earlier output; `voiced` by the speech threshold. */
  assistantAudioReceived(
    arrivalMs: number,
    samples: Int16Array,
  ): { startMs: number; endMs: number; voiced: boolean } {
    const startMs = this.recorder.play('assistant', arrivalMs, samples)
    this.#audioVersion += 1
    const endMs = startMs + (samples.length * 1000) / this.sampleRateHz
    return { startMs, endMs, voiced: rmsDbfs(samples) >= DEFAULT_SPEECH_ACTIVITY.onsetDbfs }
  }

  transcript(fragment: TranscriptFragment): void {
    this.transcripts.push(fragment)
  }

  delegationCreated(id: string, atMs: number): void {
    if (this.delegations.some((span) => span.id === id)) return
    this.delegations.push({ id, startMs: atMs, settledMs: null })
  }

  delegationSettled(id: string, atMs: number): void {
    const span = this.delegations.find((candidate) => candidate.id === id)
    if (span !== undefined && span.settledMs === null) span.settledMs = atMs
  }

  usageReported(seconds: number, atMs: number): void {
    this.usage.push({ seconds, atMs })
  }

  /**
   * Voiced intervals of each channel, measured on the recorded audio (caller: what we sent). Measured once
   * per state of the audio: observation and metrics ask for them several times after collection ended.
   * Callers get copies, so nothing they do changes the cached measurement.
   */
  speechIntervals(): { caller: SpeechInterval[]; assistant: SpeechInterval[] } {
    if (this.#speech === null || this.#speech.version !== this.#audioVersion) {
      const rendered = this.recorder.render()
      const options = { sampleRateHz: this.sampleRateHz }
      this.#speech = {
        version: this.#audioVersion,
        intervals: {
          caller: detectSpeech(rendered.caller, options),
          assistant: detectSpeech(rendered.assistant, options),
        },
      }
    }
    const { caller, assistant } = this.#speech.intervals
    return {
      caller: caller.map((interval) => ({ ...interval })),
      assistant: assistant.map((interval) => ({ ...interval })),
    }
  }

  /** Transcript lines per role: consecutive fragments of one role less than LINE_GAP_MS apart are one line. */
  lines(): TimelineLine[] {
    const lines: TimelineLine[] = []
    const open: Partial<Record<'user' | 'assistant', TimelineLine>> = {}
    const ordered = [...this.transcripts].sort((a, b) => fragmentStart(a) - fragmentStart(b))
    for (const fragment of ordered) {
      const start = fragmentStart(fragment)
      const end = Math.max(start, fragment.endMs ?? start)
      const current = open[fragment.role]
      const last = lines.at(-1)
      if (current !== undefined && last === current && start - current.endMs < LINE_GAP_MS) {
        current.text += fragment.text
        current.endMs = Math.max(current.endMs, end)
        continue
      }
      const line = { role: fragment.role, text: fragment.text, startMs: start, endMs: end }
      lines.push(line)
      open[fragment.role] = line
    }
    return lines.map((line) => ({ ...line, text: line.text.trim() })).filter((line) => line.text !== '')
  }
}

function fragmentStart(fragment: TranscriptFragment): number {
  return fragment.startMs ?? fragment.receivedAtMs
}
