// The caller sources of the single-turn phases. Each prepares the request exactly as it is streamed, after a
// short lead-in of silence (a phone caller starts speaking a moment after the line opens).
// - synthetic: deterministic synthetic voiced audio (offline), with the hearing oracle entry for it;
// - tts: text-to-speech through the cached synthesizer (live);
// - recorded: a scenario's WAV recording, streamed as it is; offline, what it says comes from its metadata or
//   the scenario's input.text (a stand-in for recognition, given only to the offline server, never to the
//   assistant). When the caller speaks in it comes from the intervals measured on the clean signal when the
//   recording was generated; a recording without them (a user's own) is measured with the WebRTC voice
//   activity detector, because an energy threshold reads a noisy recording as speech from end to end.
import { concatPcm16, durationMs, silence } from '../../audio/pcm.ts'
import type { SpeechInterval } from '../../audio/speech-activity.ts'
import type { SpeechSynthesizer } from '../../audio/synthesis.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { detectVoiceActivity } from '../../audio/voice-activity.ts'
import { readMonoWavFile } from '../../audio/wav.ts'
import type { ModelSettings } from '../../config/index.ts'
import type { LoadedScenario, Scenario } from '../../scenarios/index.ts'
import type { CallerSource, HeardUtterance } from './caller.ts'
import { describeError, StageError } from './stage.ts'

/** Silence before the request starts. */
export const LEAD_IN_MS = 200

function requestText(scenario: Pick<Scenario, 'id' | 'input'>): string {
  const text = scenario.input.text
  if (text.trim() === '') {
    throw new StageError(
      'input_setup',
      `Scenario ${scenario.id}: input.text is empty; give the caller something to say.`,
    )
  }
  return text
}

/** Offline CRAWL: the request in the deterministic synthetic voice, heard exactly as said. */
export const syntheticCallerSource: CallerSource = {
  audioSource: 'synthetic',
  async prepare(scenario) {
    const text = requestText(scenario)
    const speech = syntheticSpeech(text)
    const endMs = LEAD_IN_MS + Math.round(durationMs(speech.length))
    return {
      samples: concatPcm16([silence(LEAD_IN_MS), speech]),
      text,
      hearing: [{ text, startMs: LEAD_IN_MS, endMs }],
      callerSpeech: [{ startMs: LEAD_IN_MS, endMs }],
      source: 'synthetic',
    }
  },
}

/** Live CRAWL: OpenAI text-to-speech of the request, behind the content-addressed cache. */
export function ttsCallerSource(
  speech: Pick<SpeechSynthesizer, 'synthesize'>,
  models: Pick<ModelSettings, 'tts_model' | 'live_voice'>,
): CallerSource {
  return {
    audioSource: 'synthetic',
    async prepare(scenario, options) {
      const text = requestText(scenario)
      try {
        const synthesized = await speech.synthesize(
          { text, model: models.tts_model, voice: models.live_voice },
          options.signal === undefined ? {} : { signal: options.signal },
        )
        return {
          samples: concatPcm16([silence(LEAD_IN_MS), synthesized.samples]),
          text,
          hearing: [],
          source: 'tts',
        }
      } catch (error) {
        throw new StageError('audio_synthesis', `Scenario ${scenario.id}: ${describeError(error)}`, {
          cause: error,
        })
      }
    },
  }
}

/** Where a recording's caller speech intervals came from: generation time, or measured now. */
export type CallerSpeechSource = 'recording_metadata' | 'voice_activity_detector'

/** The key under which a WALK row's recording metadata says its intervals were measured by the detector. */
export const MEASURED_CALLER_SPEECH_KEY = 'live_evals_caller_speech'

/**
 * The caller's speech intervals a recording's metadata carries (ms from the recording's first sample): ours
 * under `live_evals.speech_intervals` when we filled another toolkit's recording (it wins, since it describes
 * the WAV we wrote), else `speech_intervals`. Null when there are none, or none usable.
 */
export function recordedSpeechIntervals(metadata: Record<string, unknown>): SpeechInterval[] | null {
  const ours = metadata.live_evals
  const nested =
    ours !== null && typeof ours === 'object' && !Array.isArray(ours)
      ? (ours as Record<string, unknown>).speech_intervals
      : undefined
  for (const candidate of [nested, metadata.speech_intervals]) {
    if (!Array.isArray(candidate)) continue
    const spans = candidate.flatMap((interval) => {
      const { start_ms: start, end_ms: end } = (interval ?? {}) as Record<string, unknown>
      return typeof start === 'number' && typeof end === 'number' && Number.isFinite(start) && end > start
        ? [{ startMs: start, endMs: end }]
        : []
    })
    if (spans.length > 0) return spans.sort((a, b) => a.startMs - b.startMs)
  }
  return null
}

/** What the offline server hears: the whole text, from the first interval's start to the last one's end. */
function heardIn(
  text: string,
  intervals: SpeechInterval[],
  offsetMs: number,
  lengthMs: number,
): HeardUtterance[] {
  const first = intervals[0]
  const last = intervals.at(-1)
  if (first === undefined || last === undefined) {
    return [{ text, startMs: offsetMs, endMs: offsetMs + lengthMs }]
  }
  // The oracle takes whole milliseconds; rounding outwards keeps every measured voiced sample inside the span.
  return [{ text, startMs: offsetMs + Math.floor(first.startMs), endMs: offsetMs + Math.ceil(last.endMs) }]
}

export interface RecordedCallerOptions {
  /** Which of the scenario's recordings to play (default: the first). */
  recordingId?: string
  offline: boolean
  /**
   * WALK rows: when the intervals had to be measured (no metadata), the echoed metadata gains
   * `live_evals_caller_speech` saying so, with what was measured. Off, the echo is exactly the dataset's.
   */
  reportMeasuredSpeech?: boolean
}

/**
 * WALK: the scenario's recording (the first, or the one with `recordingId`), streamed sample for sample. A bad
 * recording is an input_setup failure naming the file; text-to-speech never stands in for it.
 */
export function recordedCallerSource(options: RecordedCallerOptions): CallerSource {
  const chosen = (scenario: Scenario) => {
    const recordings = (scenario as LoadedScenario).input.recordings
    return options.recordingId === undefined
      ? recordings[0]
      : recordings.find((candidate) => candidate.id === options.recordingId)
  }
  return {
    audioSource: 'recorded',
    recordingOf(scenario) {
      const recording = chosen(scenario)
      return recording === undefined
        ? undefined
        : {
            id: recording.id,
            path: recording.path,
            file: recording.resolvedPath,
            condition: recording.condition,
            metadata: recording.metadata,
          }
    },
    async prepare(scenario) {
      const recording = chosen(scenario)
      if (recording === undefined) {
        throw new StageError(
          'input_setup',
          `Scenario ${scenario.id}: no recording${options.recordingId === undefined ? '' : ` "${options.recordingId}"`} in input.recordings.`,
        )
      }
      let decoded: Awaited<ReturnType<typeof readMonoWavFile>>
      try {
        decoded = await readMonoWavFile(recording.resolvedPath)
      } catch (error) {
        throw new StageError('input_setup', `Scenario ${scenario.id}: ${describeError(error)}`, {
          cause: error,
        })
      }
      const transcript = recording.metadata.transcript
      const text =
        typeof transcript === 'string' && transcript.trim() !== '' ? transcript : scenario.input.text
      const known = recordedSpeechIntervals(recording.metadata)
      const intervals = known ?? (await detectVoiceActivity(decoded.samples))
      const metadata =
        known === null && options.reportMeasuredSpeech === true
          ? {
              ...recording.metadata,
              [MEASURED_CALLER_SPEECH_KEY]: {
                source: 'voice_activity_detector' satisfies CallerSpeechSource,
                detector: 'webrtc_vad_mode_3',
                // Whole milliseconds outwards, as generated recordings store theirs (10 ms frames lose nothing).
                speech_intervals: intervals.map(({ startMs, endMs }) => ({
                  start_ms: Math.floor(startMs),
                  end_ms: Math.ceil(endMs),
                })),
              },
            }
          : recording.metadata
      return {
        samples: concatPcm16([silence(LEAD_IN_MS), decoded.samples]),
        text,
        hearing: options.offline ? heardIn(text, intervals, LEAD_IN_MS, Math.round(decoded.durationMs)) : [],
        ...(intervals.length === 0
          ? {}
          : {
              callerSpeech: intervals.map(({ startMs, endMs }) => ({
                startMs: LEAD_IN_MS + startMs,
                endMs: LEAD_IN_MS + endMs,
              })),
            }),
        source: 'recorded',
        recording: {
          id: recording.id,
          path: recording.path,
          file: recording.resolvedPath,
          condition: recording.condition,
          metadata,
        },
      }
    },
  }
}
