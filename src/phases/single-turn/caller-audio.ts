// The caller's spoken request for a single-turn scenario. Offline: deterministic synthetic voiced audio and the
// hearing oracle entry for it (only what the caller actually says, when they say it). Live: text-to-speech
// through the cached synthesizer. Either way the request starts after a short lead-in of silence, the way a
// phone caller starts speaking a moment after the line opens.

import { concatPcm16, durationMs, silence } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import type { Scenario } from '../../scenarios/index.ts'
import { type CallerAudio, describeError, type SingleTurnEnv, StageError } from './types.ts'

/** Silence before the request starts. */
export const LEAD_IN_MS = 200

export async function prepareCallerAudio(
  scenario: Pick<Scenario, 'id' | 'input'>,
  env: Pick<SingleTurnEnv, 'settings' | 'speech'>,
  options: { signal?: AbortSignal } = {},
): Promise<CallerAudio> {
  const text = scenario.input.text
  if (text.trim() === '') {
    throw new StageError(
      'input_setup',
      `Scenario ${scenario.id}: input.text is empty; give the caller something to say.`,
    )
  }
  const leadIn = silence(LEAD_IN_MS)
  if (env.settings.execution.mode === 'offline') {
    const speech = syntheticSpeech(text)
    const endMs = LEAD_IN_MS + Math.round(durationMs(speech.length))
    return {
      samples: concatPcm16([leadIn, speech]),
      text,
      hearing: [{ text, startMs: LEAD_IN_MS, endMs }],
      source: 'synthetic',
    }
  }
  if (env.speech === null) {
    throw new StageError(
      'audio_synthesis',
      `Scenario ${scenario.id}: live mode needs a speech synthesizer (env.speech) for the caller audio.`,
    )
  }
  try {
    const synthesized = await env.speech.synthesize(
      { text, model: env.settings.models.tts_model, voice: env.settings.models.live_voice },
      options.signal === undefined ? {} : { signal: options.signal },
    )
    return { samples: concatPcm16([leadIn, synthesized.samples]), text, hearing: [], source: 'tts' }
  } catch (error) {
    throw new StageError('audio_synthesis', `Scenario ${scenario.id}: ${describeError(error)}`, {
      cause: error,
    })
  }
}
