import { describe, expect, test } from 'vitest'
import { StageError } from '../phases/single-turn/types.ts'
import { callerAudioFailure } from './single-turn.ts'

describe('callerAudioFailure', () => {
  test('a request that could not be prepared is an infrastructure_error row naming its stage', () => {
    const scenario = { id: 'case_1', title: 'A case' } as Parameters<typeof callerAudioFailure>[0]
    const synthesis = callerAudioFailure(
      scenario,
      new StageError('audio_synthesis', 'Scenario case_1: TTS 500'),
    )
    expect(synthesis.row).toMatchObject({
      scenario_id: 'case_1',
      status: 'infrastructure_error',
      error: { stage: 'audio_synthesis', message: 'Scenario case_1: TTS 500' },
    })
    expect(synthesis.row.metrics.task.tool_calls).toBeNull()
    expect(callerAudioFailure(scenario, new Error('disk full')).failure).toEqual({
      stage: 'input_setup',
      message: 'disk full',
    })
  })
})
