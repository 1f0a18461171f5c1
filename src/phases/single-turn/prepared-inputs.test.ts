// executeSingleTurnScenario with the caller audio and the application built beforehand (what the Vitest
// callerAudio and toolState fixtures hand in): the run streams that very audio and changes that very state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientDelegation, responsesDelegation } from '../../assistants/architectures/index.ts'
import type { Architecture } from '../../assistants/frontend/index.ts'
import { concatPcm16, silence } from '../../audio/pcm.ts'
import { readMonoWavFile } from '../../audio/wav.ts'
import { assistantVisibleInput } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import type { CallerAudio } from '../engine/caller.ts'
import { syntheticCallerSource } from '../engine/caller-sources.ts'
import {
  bundledCrawlScenario,
  executeScenario as executeSingleTurnScenario,
  freshRunDirectory,
  offlineCrawlSettings,
  offlineEnv,
} from './test-support.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

const BOOKING = 'crawl_001_booking_complete_request'
// Longer than the default lead-in, so audio prepared anew inside the run could not match it by accident.
const EXTRA_LEAD_IN_MS = 340

/** The default request, spoken EXTRA_LEAD_IN_MS later (the hearing oracle shifted to match). */
function delayed(audio: CallerAudio): CallerAudio {
  return {
    ...audio,
    samples: concatPcm16([silence(EXTRA_LEAD_IN_MS), audio.samples]),
    hearing: audio.hearing.map((heard) => ({
      ...heard,
      startMs: heard.startMs + EXTRA_LEAD_IN_MS,
      endMs: heard.endMs + EXTRA_LEAD_IN_MS,
    })),
  }
}

describe.each<Architecture>(['responses', 'client'])('a %s run on prepared inputs', (architecture) => {
  it('streams the given caller audio and books into the given application', async () => {
    const settings = await offlineCrawlSettings()
    const scenario = await bundledCrawlScenario(BOOKING)
    const env = offlineEnv(settings, server, await freshRunDirectory(), architecture)
    const callerAudio = delayed(await syntheticCallerSource.prepare(scenario, {}))
    const application = env.architecture.createApplication(assistantVisibleInput(scenario))
    const before = application.snapshot()

    const execution = await executeSingleTurnScenario(scenario, env, { callerAudio, application })

    expect(execution.row.status, JSON.stringify(execution.failure)).toBe('passed')
    const reservations = (application.snapshot() as { reservations: unknown[] }).reservations
    expect(reservations).toHaveLength((before as { reservations: unknown[] }).reservations.length + 1)
    expect(application.executions().map((call) => call.name)).toEqual(['create_reservation'])
    expect(execution.observation?.final_application_state).toEqual(application.snapshot())
    // input.wav is the caller channel: the given audio first, then the silence streamed while listening.
    const input = await readMonoWavFile(execution.artifacts.input_audio as string)
    expect(input.samples.subarray(0, callerAudio.samples.length)).toEqual(callerAudio.samples)
    expect(input.samples.subarray(callerAudio.samples.length).every((sample) => sample === 0)).toBe(true)
  })
})

describe('a prepared application that does not fit', () => {
  it('is refused at input_setup before connecting, naming the reason', async () => {
    const settings = await offlineCrawlSettings()
    const scenario = await bundledCrawlScenario(BOOKING)
    const env = offlineEnv(settings, server, await freshRunDirectory(), 'responses')
    const visible = assistantVisibleInput(scenario)
    const cases = [
      [clientDelegation().createApplication(visible), /client copy, not the responses one/],
      [
        responsesDelegation().createApplication({ ...visible, scenarioId: 'other' }),
        /built for scenario other/,
      ],
    ] as const
    for (const [application, reason] of cases) {
      const execution = await executeSingleTurnScenario(scenario, env, { application })
      expect(execution.failure?.stage).toBe('input_setup')
      expect(execution.failure?.message).toMatch(reason)
      expect(execution.row.status).toBe('infrastructure_error')
    }
  })
})
