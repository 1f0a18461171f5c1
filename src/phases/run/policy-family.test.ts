// The bundled gpt-live-1.1 policy family (scenarios/run/restaurant.json, tags policy:*) played offline: a caller's
// backchannel stays its own turn and goes unanswered, and a barge-in the assistant yields to at once is found
// after the fact and measured (stop time 0 ms), so the voice metrics show what the policies ask for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { computeVoiceMetrics } from '../../metrics/voice-metrics.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { bundledRunScenario, playBundled } from './conversation.test-helpers.ts'
import { observeRunConversation } from './observe.ts'
import { DEFAULT_TURN_TAKING } from './offline-caller.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

const noExpectation = { tags: [], required_tools: [], state: {}, initial_state: {} }

describe('the policy family, offline', () => {
  it('a backchannel is its own caller turn, the caller pauses after it, and the assistant does not answer it', async () => {
    const scenario = await bundledRunScenario('run_012_backchannel_not_answered')
    const conversation = await playBundled(server, scenario, 'responses')
    const index = conversation.plan.findIndex((utterance) => utterance.action === 'BACKCHANNEL')
    const backchannel = conversation.plan[index]
    const next = conversation.plan[index + 1]
    expect(backchannel?.text).toBe('Mm-hmm.')
    // The pause a listener leaves after "mm-hmm" (a reply's worth of quiet, then the caller's usual gap).
    const pause = DEFAULT_TURN_TAKING.replyQuietMs + DEFAULT_TURN_TAKING.callerGapMs
    expect((next?.startMs ?? 0) - (backchannel?.endMs ?? 0)).toBeGreaterThanOrEqual(pause)
    const { interaction, voice } = observeRunConversation(conversation)
    expect(interaction.caller_turns.map((turn) => turn.kind)).toEqual([
      'request',
      'backchannel',
      'request',
      'request',
      'closing',
    ])
    expect(computeVoiceMetrics(voice, noExpectation).backchannel_selectivity).toEqual({
      backchannels: 1,
      answered: 0,
      ignored: 1,
      selectivity: 1,
    })
  }, 120_000)

  it('a barge-in the assistant yields to at once is found after the fact: exercised, yielded, stop time 0 ms', async () => {
    const scenario = await bundledRunScenario('run_013_barge_in_yield')
    const conversation = await playBundled(server, scenario, 'responses')
    const { turns, voice } = observeRunConversation(conversation)
    expect(turns.barge_ins).toEqual({ exercised: 1, unexercised: 0 })
    expect(turns.yield_rate).toBe(1)
    expect(computeVoiceMetrics(voice, noExpectation).stop_time).toEqual({
      barge_ins: 1,
      while_talking: 1,
      mean_ms: 0,
      max_ms: 0,
    })
  }, 120_000)
})
