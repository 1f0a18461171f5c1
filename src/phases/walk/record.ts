// One recording made: the text spoken by the engine, laid out with silence around it, the condition applied
// frame by frame as a live stream would be (applyRealism), and the provenance block that describes it.

import { applyRealism } from '../../audio/effects/index.ts'
import { concatPcm16, silence } from '../../audio/pcm.ts'
import type { SpeechInterval } from '../../audio/speech-activity.ts'
import type { OurGeneration } from './provenance.ts'
import type { RecordingRequest } from './recording-request.ts'
import type { SpeechEngine } from './speech/engine.ts'

/** Silence before the caller starts (a line picked up) and after they stop. */
const RECORDING_LEAD_IN_MS = 300
// Short on purpose: the single-turn phases count an answer only from the end of the request's samples, while an
// assistant (the offline server 300 ms after the speech, a live model on its own end-of-turn detection) may
// answer as soon as the speech ends. A long silent tail would let it answer inside the recording.
const RECORDING_TAIL_MS = 100
/** Below this magnitude a sample at either end of the synthesized speech is the engine's own silence. */
const SILENCE_FLOOR = 32

/** The speech without the silence an engine puts around it, so the layout above is exactly what is heard. */
function trimSilence(samples: Int16Array): Int16Array {
  let start = 0
  let end = samples.length
  while (start < end && Math.abs(samples[start] as number) <= SILENCE_FLOOR) start++
  while (end > start && Math.abs(samples[end - 1] as number) <= SILENCE_FLOOR) end--
  return samples.subarray(start, end)
}

export interface MadeRecording {
  samples: Int16Array
  generation: OurGeneration
  callerSpeechIntervals: SpeechInterval[]
}

export async function makeRecording(
  engine: SpeechEngine,
  request: RecordingRequest,
  options: { baseDirectory?: string } = {},
): Promise<MadeRecording> {
  const speech = trimSilence(await engine.synthesize(request.text))
  if (speech.length === 0) {
    throw new Error(`${engine.engine} produced only silence for ${JSON.stringify(request.text)}`)
  }
  const clean = concatPcm16([silence(RECORDING_LEAD_IN_MS), speech, silence(RECORDING_TAIL_MS)])
  const processed = await applyRealism(clean, {
    condition: request.condition,
    seed: request.seed,
    overrides: request.overrides,
    ...(options.baseDirectory === undefined ? {} : { baseDirectory: options.baseDirectory }),
  })
  return {
    samples: processed.samples,
    callerSpeechIntervals: processed.callerSpeechIntervals,
    generation: {
      source: 'synthetic_speech',
      audio_realism: processed.metadata,
      tts_model: engine.model,
      tts_voice: engine.voice,
      source_scenario_id: request.sourceScenarioId,
      text: request.text,
      voice: engine.voice,
      engine: engine.engine,
      engine_version: engine.version,
      rate_wpm: engine.rateWpm,
      condition: request.condition,
      seed: request.seed,
      effects: processed.metadata.effects,
      lead_in_ms: RECORDING_LEAD_IN_MS,
      tail_ms: RECORDING_TAIL_MS,
      latency_ms: processed.latencyMs,
    },
  }
}
