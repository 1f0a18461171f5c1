// The caller sources of the single-turn phases. Each prepares the request exactly as it is streamed, after a
// short lead-in of silence (a phone caller starts speaking a moment after the line opens).
// - synthetic: deterministic synthetic voiced audio (offline), with the hearing oracle entry for it;
// - tts: text-to-speech through the cached synthesizer (live);
// - recorded: a scenario's WAV recording, streamed as it is; offline, what it says comes from its metadata or
//   the scenario's input.text (a stand-in for recognition, given only to the offline server, never to the
//   assistant).
import { concatPcm16, durationMs, silence } from '../../audio/pcm.ts'
import type { SpeechSynthesizer } from '../../audio/synthesis.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
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
      source: 'synthetic',
    }
  },
}

/** Live CRAWL: OpenAI text-to-speech of the request, behind the content-addressed cache. */
export function ttsCallerSource(
  speech: SpeechSynthesizer,
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

/** What a recording's metadata says about when the caller speaks in it (measured on the clean signal). */
function heardIn(
  metadata: Record<string, unknown>,
  text: string,
  offsetMs: number,
  lengthMs: number,
): HeardUtterance[] {
  const intervals = metadata.speech_intervals
  if (Array.isArray(intervals) && intervals.length > 0) {
    const spans = intervals.flatMap((interval) => {
      const { start_ms: start, end_ms: end } = (interval ?? {}) as Record<string, unknown>
      return typeof start === 'number' && typeof end === 'number' && end > start ? [{ start, end }] : []
    })
    const first = spans[0]
    const last = spans.at(-1)
    if (first !== undefined && last !== undefined) {
      return [{ text, startMs: offsetMs + first.start, endMs: offsetMs + last.end }]
    }
  }
  return [{ text, startMs: offsetMs, endMs: offsetMs + lengthMs }]
}

/**
 * WALK: the scenario's recording (the first, or the one with `recordingId`), streamed sample for sample. A bad
 * recording is an input_setup failure naming the file; text-to-speech never stands in for it.
 */
export function recordedCallerSource(options: { recordingId?: string; offline: boolean }): CallerSource {
  return {
    audioSource: 'recorded',
    async prepare(scenario) {
      const recordings = (scenario as LoadedScenario).input.recordings
      const recording =
        options.recordingId === undefined
          ? recordings[0]
          : recordings.find((candidate) => candidate.id === options.recordingId)
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
      return {
        samples: concatPcm16([silence(LEAD_IN_MS), decoded.samples]),
        text,
        hearing: options.offline
          ? heardIn(recording.metadata, text, LEAD_IN_MS, Math.round(decoded.durationMs))
          : [],
        source: 'recorded',
        recording: {
          id: recording.id,
          path: recording.path,
          file: recording.resolvedPath,
          condition: recording.condition,
          metadata: recording.metadata,
        },
      }
    },
  }
}
