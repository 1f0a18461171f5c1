// The rehearsal's RUN caller: found from the brief its session is started with, saying the offline caller's plan
// one line per assistant turn, and (on the offline server) deciding each reply in a Responses round of its own.
import { describe, expect, it } from 'vitest'
import { callerBriefOf } from '../../phases/run/brief.ts'
import { bundledRunScenario } from '../../phases/run/conversation.test-helpers.ts'
import { callerSessionConfig } from '../../phases/run/live/caller-session.ts'
import { scriptedCallerLines } from '../../phases/run/offline-caller.ts'
import { loadDataset } from '../../scenarios/load.ts'
import type { Scenario } from '../../scenarios/scenario.ts'
import { type Frame, useOfflineLiveServer } from '../live-server/test-support.ts'
import { callerBehaviour, callerReply, RehearsalCallerCast } from './run-caller.ts'

const runDataset = async (file: string) =>
  (await loadDataset(new URL(`../../../scenarios/run/${file}`, import.meta.url).pathname))
    .scenarios as Scenario[]

describe('RehearsalCallerCast', () => {
  it('finds each scenario from the instructions its caller session starts with, for either first speaker', async () => {
    const scenarios = [
      ...(await runDataset('restaurant.json')),
      ...(await runDataset('reference-style.json')),
    ]
    const cast = new RehearsalCallerCast(scenarios)
    for (const scenario of scenarios) {
      for (const firstSpeaker of ['caller', 'assistant'] as const) {
        const config = callerSessionConfig(callerBriefOf(scenario, firstSpeaker), {
          liveModel: 'gpt-live-1',
          assistantVoice: 'marin',
          backend: { model: 'gpt-5.6-luna', reasoningEffort: 'low' },
        })
        const caller = cast.identify(config.instructions)
        // Scenarios whose caller briefs are word for word the same are one caller (the first one named).
        const twin = scenarios.find(
          (other) =>
            callerBriefOf(other, firstSpeaker).instructions ===
            callerBriefOf(scenario, firstSpeaker).instructions,
        )
        expect(caller?.scenarioId).toBe(twin?.id)
        expect(caller?.firstSpeaker).toBe(firstSpeaker)
        expect(caller?.backendInstructions).toBe(
          (config.delegation as { responses: { instructions: string } }).responses.instructions,
        )
      }
    }
    expect(cast.identify('You are a helpful restaurant assistant.')).toBeNull()
    expect(cast.identify(undefined)).toBeNull()
  })
})

describe('callerReply', () => {
  it('says the offline plan one line per assistant turn, waits through holds and backchannels, then stops', async () => {
    const scenario = await bundledRunScenario('run_002_booking_missing_name')
    const cast = new RehearsalCallerCast([scenario])
    const caller = cast.identify(callerBriefOf(scenario, 'caller').instructions)
    if (caller === null) throw new Error('the caller was not found')
    const lines = scriptedCallerLines(
      scenario.simulation_parameters as NonNullable<Scenario['simulation_parameters']>,
      scenario.input.text,
    ).map((line) => line.text)
    expect(lines.length).toBeGreaterThanOrEqual(3)
    // Caller first: the opening was said (from the harness's commentary) before the assistant's first turn.
    const earlier = [{ role: 'assistant' as const, text: lines[0] as string }]
    expect(callerReply(caller, 'Sure, what name should I put it under?', earlier)).toBe(lines[1])
    expect(callerReply(caller, 'One moment.', earlier)).toBeNull()
    expect(callerReply(caller, 'Mm-hmm.', earlier)).toBeNull()
    const all = lines.map((text) => ({ role: 'assistant' as const, text }))
    expect(callerReply(caller, 'Goodbye!', all)).toBeNull()
    // Assistant first: the greeting is answered with the opening.
    expect(callerReply(caller, 'Thanks for calling, how can I help?', [])).toBe(lines[0])
  })
})

describe('the caller on the offline server', () => {
  const harness = useOfflineLiveServer()

  it('decides each reply in a Responses round (delegation, message, usage) and speaks it, without an acknowledgement', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const caller = new RehearsalCallerCast([scenario]).identify(
      callerBriefOf(scenario, 'assistant').instructions,
    )
    if (caller === null) throw new Error('the caller was not found')
    const config = callerSessionConfig(callerBriefOf(scenario, 'assistant'), {
      liveModel: 'gpt-live-1',
      assistantVoice: 'marin',
      backend: { model: 'gpt-5.6-luna', reasoningEffort: 'low' },
    })
    const client = await harness.connect({
      hearing: [
        { text: 'Thanks for calling, how can I help?', startMs: 100, endMs: 1_500 },
        { text: 'One moment.', startMs: 30_000, endMs: 30_800 },
      ],
      behaviour: callerBehaviour(caller),
    })
    expect((await client.start(config as unknown as Record<string, unknown>)).type).toBe('session.started')
    client.sendAudio(35_000)
    const spoken = await client.waitFor(
      (event) => event.type === 'session.output_transcript.delta',
      'the caller speaking',
    )
    expect(spoken.delta).toBe(scenario.input.text.split(' ')[0])
    const events = client.events
    const created = events.find((event) => event.type === 'session.delegation.created') as Frame
    expect(created.delegation).toMatchObject({ target: 'responses' })
    const nested = events
      .filter(
        (event) =>
          event.type === 'response.event' &&
          event.delegation_id === (created.delegation as { id: string }).id,
      )
      .map((event) => event.event as Frame)
    expect(nested.at(-1)).toMatchObject({ type: 'response.completed' })
    expect(nested.find((event) => event.type === 'response.output_text.done')?.text).toBe(scenario.input.text)
    // Exactly one round: "One moment." is the assistant holding, not a turn to answer; and no acknowledgement.
    await client.waitFor((event) => event.type === 'session.usage.updated', 'usage after the speech')
    const transcript = client.events
      .filter((event) => event.type === 'session.output_transcript.delta')
      .map((event) => event.delta)
      .join('')
    expect(transcript).toBe(scenario.input.text)
    expect(client.events.filter((event) => event.type === 'session.delegation.created')).toHaveLength(1)
  })
})
