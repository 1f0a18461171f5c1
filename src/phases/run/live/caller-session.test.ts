import { describe, expect, it } from 'vitest'
import { SimulationParametersSchema } from '../../../scenarios/simulation.ts'
import { buildCallerBrief } from '../brief.ts'
import { CALLER_BACKEND_MAX_OUTPUT_TOKENS, callerSessionConfig, callerVoiceFor } from './caller-session.ts'

const brief = buildCallerBrief({
  parameters: SimulationParametersSchema.parse({
    goal: 'Book a table for two.',
    persona: { voice: 'marin' },
  }),
  openingText: 'Hi, a table for two please.',
  firstSpeaker: 'caller',
})

describe('the caller session', () => {
  it('keeps the persona voice unless it is the assistant’s, then takes the first other fallback', () => {
    expect(callerVoiceFor('verse', 'marin')).toBe('verse')
    expect(callerVoiceFor('marin', 'marin')).toBe('coral')
    expect(callerVoiceFor('Coral', 'coral')).toBe('sage')
    expect(callerVoiceFor('coral', ' CORAL ')).toBe('sage')
  })

  it('starts with the brief, its own voice and reasoning backend, and no tools', () => {
    const config = callerSessionConfig(brief, {
      liveModel: 'gpt-live-1',
      assistantVoice: 'marin',
      backend: { model: 'gpt-5.6-luna', reasoningEffort: 'low' },
    })
    expect(config).toEqual({
      model: 'gpt-live-1',
      instructions: brief.instructions,
      audio: { format: { type: 'audio/pcm', rate: 24_000 }, output: { voice: 'coral' } },
      delegation: {
        type: 'responses',
        responses: {
          model: 'gpt-5.6-luna',
          instructions: brief.backendInstructions,
          reasoning: { effort: 'low' },
          max_output_tokens: CALLER_BACKEND_MAX_OUTPUT_TOKENS,
          text: { verbosity: 'low' },
        },
      },
    })
    expect(JSON.stringify(config)).not.toContain('"tools"')
  })

  it('without a backend the caller is frontend only (client delegation, which it must never use)', () => {
    const config = callerSessionConfig(brief, {
      liveModel: 'gpt-live-1',
      assistantVoice: 'marin',
      backend: null,
    })
    expect(config.delegation).toEqual({ type: 'client' })
  })
})
