// Faults are evaluator-side: the assistant meets only what a failing backend or a bad line would give it. A profile
// whose name and seed are sentinels injects on every plane it can reach (a plausibly wrong tool answer; a stalled
// backend: Responses delegation's backend model played by the offline server, or client delegation's backend, the
// offline one and the OpenAI reference backend over a loopback Responses API), and a recording proxy in front of
// the offline GPT-Live server keeps every frame the client sent. Neither sentinel appears in any frame or any
// backend input, while the faults demonstrably fired.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  models,
  outputTranscript,
  pumpSilenceUntil,
  sendSilence,
} from '../assistants/assistant-session.fixtures.ts'
import { openAssistantUnderTest, registerOfflineAssistant } from '../assistants/assistant-session.ts'
import {
  BACKEND_VARIANTS,
  recordedVariant,
  type SentinelStandIns,
  startRecordingProxy,
  startSentinelStandIns,
} from '../assistants/leak-boundary.test-helpers.ts'
import { syntheticSpeech } from '../audio/synthetic-voice.ts'
import type { FaultProfile } from '../config/fault-profiles.ts'
import { bundledRunScenario } from '../phases/run/conversation.test-helpers.ts'
import { assistantVisibleInput } from '../scenarios/visible.ts'

const NAME = 'FAULTSENTINEL-profile'
const SEED = 987_654_321
const PROFILE: FaultProfile = {
  name: NAME,
  seed: SEED,
  rules: [
    { kind: 'wrong_data', tools: ['check_availability'], rate: 1 },
    { kind: 'backend_stall', rate: 1, delay_s: 0.05 },
  ],
}
const REQUEST = 'Hi, is there a table available for four on August 22 at 8 p.m.?'

let standIns: SentinelStandIns
beforeAll(async () => {
  standIns = await startSentinelStandIns(
    'check_availability',
    { date: '2026-08-22', time: '20:00', party_size: 4 },
    'A table for 4 on 2026-08-22 at 20:00 is not available.',
  )
})
afterAll(() => standIns.close())

describe('fault profiles are evaluator-side: the profile name and seed never reach GPT-Live or the backend', () => {
  test.each(BACKEND_VARIANTS)('%s', async (name) => {
    const { server, responsesApi } = standIns
    const scenario = await bundledRunScenario('run_014_availability_delegated')
    const visible = { ...assistantVisibleInput(scenario), inputText: REQUEST }
    const { architecture, backendSaw } = recordedVariant(name, responsesApi)
    const application = architecture.createApplication(visible, undefined, {
      faults: { profile: PROFILE, source: 'setting' },
    })
    const speech = syntheticSpeech(REQUEST)
    const token = registerOfflineAssistant(
      server,
      visible,
      architecture,
      [{ text: REQUEST, startMs: 0, endMs: Math.round((speech.length * 1000) / 24_000) }],
      { sessionFaults: application.faults },
    )
    const proxy = await startRecordingProxy(server.url)
    const assistant = await openAssistantUnderTest({
      visibleInput: visible,
      architecture,
      models,
      connection: { apiKey: token, baseURL: proxy.baseURL, allowInsecureLoopback: true },
      application,
    })
    assistant.sendAudio(speech)
    sendSilence(assistant, 1_000)
    const answered = await pumpSilenceUntil(assistant, () =>
      /available/.test(outputTranscript(assistant.session.log.events)),
    )
    await assistant.waitForDelegatedWork()
    await assistant.close()
    await proxy.close()
    expect(answered).toBe(true)
    // The faults fired: the tool answered wrongly, and the backend's answer was held back.
    expect(assistant.tools.executions()[0]?.fault).toMatchObject({ kind: 'wrong_data', profile: NAME })
    expect(application.faults?.events()).toEqual([
      expect.objectContaining({ kind: 'backend_stall', plane: 'backend', delay_ms: 50 }),
    ])
    // Yet nothing the assistant or its backend received names the profile or its seed.
    const seen = [...proxy.sent, ...backendSaw()]
    expect(seen.length).toBeGreaterThan(3)
    for (const text of seen) {
      expect(text).not.toContain('FAULTSENTINEL')
      expect(text).not.toContain(String(SEED))
      expect(text).not.toMatch(/fault|inject/i)
    }
  })
})
