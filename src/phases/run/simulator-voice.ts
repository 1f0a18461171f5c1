// The simulated caller's voice: never the assistant's, so the two sides of a recording (and a human listening
// to it) cannot be confused, and always the same for the same assistant voice, so a run is repeatable.
import type { BuiltInVoice } from 'openai/resources/live/live'

/** Caller voices in order of preference; the first that is not the assistant's is used. */
const CALLER_VOICES: readonly BuiltInVoice[] = ['cedar', 'sage', 'alloy']

export function simulatorVoice(assistantVoice: string): BuiltInVoice {
  const voice = CALLER_VOICES.find((candidate) => candidate !== assistantVoice)
  // Three candidates and one assistant voice: one always remains.
  return voice as BuiltInVoice
}
