// The live RUN driver against the real offline GPT-Live server: both sessions on it, each hearing the other
// through the caption bridge, on a virtual media clock. No completion observer here (observer.test.ts has it):
// the calls end by the fallback policy, a farewell with the expected state verified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { concatPcm16, pcm16FromBase64 } from '../../../audio/pcm.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../../testing/live-server/index.ts'
import { ARCHITECTURES, bundledRunScenario } from '../conversation.test-helpers.ts'
import {
  type LiveConversationHooks,
  type LiveConversationOptions,
  runLiveConversation,
} from './conversation.ts'
import { LiveRunError } from './errors.ts'
import { offlineLiveCall } from './live-conversation.test-helpers.ts'
import type { LiveCallRules } from './rules.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

/** Runs `also` once both sessions started, after the offline bridges the call's options attach there. */
function alsoWhenStarted(
  options: LiveConversationOptions,
  also: NonNullable<LiveConversationHooks['sessionsStarted']>,
): void {
  const bridged = options.hooks?.sessionsStarted
  options.hooks = {
    ...options.hooks,
    sessionsStarted: (participants) => {
      bridged?.(participants)
      also(participants)
    },
  }
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the conversation to fail')
    },
    (error: unknown) => error as LiveRunError,
  )

describe('the simulated caller’s model', () => {
  it('is simulation.simulator_model, not the model under test: every model of a matrix hears the same caller', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, {
      assistantModel: 'gpt-live-1.1',
      callerModel: 'gpt-live-1',
    })
    const conversation = await runLiveConversation(options)
    expect(conversation.call.assistant.started.session.model).toBe('gpt-live-1.1')
    expect(conversation.caller.session.startedEvent?.session.model).toBe('gpt-live-1')
    expect(conversation.caller.model).toBe('gpt-live-1')
  }, 60_000)
})

describe.each(Object.keys(ARCHITECTURES) as (keyof typeof ARCHITECTURES)[])(
  'live RUN call (%s)',
  (architecture) => {
    it('the caller opens, the two sessions talk turn by turn, and the call drains after the farewell', async () => {
      const scenario = await bundledRunScenario('run_001_booking_complete')
      const { options } = offlineLiveCall(server, scenario, { architecture })
      const conversation = await runLiveConversation(options)
      expect(conversation.termination_reason).toBe('response_completed')
      expect(conversation.failure).toBeNull()
      expect(conversation.completion_policy).toBe('verified_outcome_and_natural_closing')
      expect(conversation.caller_actions).toEqual({ OPENING: 1, SPEAK: 2, STOP: 1 })
      expect(conversation.plan.map((utterance) => utterance.text)).toEqual([
        scenario.input.text,
        'Great, that all sounds right.',
        'One more thing: is there parking for guests?',
        'Thanks so much. Goodbye!',
      ])
      // The caller never talks over the assistant: each line starts after the assistant's voice it answered.
      const assistantVoiced = conversation.call.timeline.speechIntervals().assistant
      for (const utterance of conversation.plan) {
        expect(
          assistantVoiced.filter(
            (span) => span.startMs < utterance.endMs - 100 && span.endMs > utterance.startMs + 100,
          ),
        ).toEqual([])
      }
      expect(conversation.call.assistant.tools.executions().map((record) => record.name)).toEqual([
        'create_reservation',
      ])
      expect(conversation.validity).toMatchObject({ status: 'valid', reason: null, delegation_ids: [] })
      // Both sessions closed with session.closed and their usage.
      expect(conversation.call.closeOutcome.type).toBe('closed')
      expect(conversation.caller.closeOutcome.type).toBe('closed')
      expect(conversation.caller.audio_duration_ms).toBeGreaterThan(30_000)
      // The drain: the farewell's signal, then at least drain_ms and 600 ms of quiet.
      const finish = conversation.finish_observed_ms as number
      expect(finish).toBeGreaterThan(conversation.plan.at(-1)?.endMs as number)
      expect(conversation.call.endedAtMs).toBeGreaterThanOrEqual(finish + 1_500)
      expect(conversation.caller.voice).toBe('coral')
      expect(conversation.relay_lateness_ms).toBeNull()
    }, 60_000)
  },
)

describe('live RUN openings', () => {
  it('assistant first: the prompt goes unchanged as commentary, the caller opens after the greeting', async () => {
    const scenario = await bundledRunScenario('run_002_booking_missing_name')
    const prompt = 'Thank you for calling Juniper Table, how can I help?'
    const { options } = offlineLiveCall(server, scenario, { assistantFirstPrompt: prompt })
    const sent: unknown[] = []
    alsoWhenStarted(options, (participants) =>
      participants.assistant.session.onSent(({ event }) => {
        if (event.type === 'session.commentary.append') sent.push(event)
      }),
    )
    const conversation = await runLiveConversation(options)
    expect(sent).toEqual([
      {
        type: 'session.commentary.append',
        content: prompt,
        delegation_id: null,
        event_id: expect.any(String),
      },
    ])
    const lines = conversation.call.timeline.lines()
    expect(lines[0]).toMatchObject({ role: 'assistant', text: prompt })
    expect(lines[1]).toMatchObject({ role: 'user', text: scenario.input.text })
    expect(conversation.plan[0]).toMatchObject({ action: 'OPENING', text: scenario.input.text })
    expect(conversation.termination_reason).toBe('response_completed')
  }, 60_000)

  it('caller first: a caller that is not heard within 20 s fails with caller_opening', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    // The caller's opening commentary reaches its timeline only after 25 s of audio.
    const { options } = offlineLiveCall(server, scenario, { callerFaults: { ackDelayMs: 25_000 } })
    const error = await failureOf(runLiveConversation(options))
    expect(error).toBeInstanceOf(LiveRunError)
    expect(error).toMatchObject({ terminationReason: 'caller_opening', stage: 'caller_simulation' })
    expect(error.message).toContain('20000 ms')
  }, 60_000)

  it('assistant first: caller speech before the greeting fails with assistant_opening', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, {
      assistantFirstPrompt: 'Juniper Table, good evening.',
      // The assistant greets only after 3 s; the caller thinks it heard something at once and talks.
      assistantFaults: { ackDelayMs: 3_000 },
      callerHearing: [{ text: 'Hello?', startMs: 0, endMs: 400 }],
    })
    const error = await failureOf(runLiveConversation(options))
    expect(error).toMatchObject({ terminationReason: 'assistant_opening', stage: 'caller_simulation' })
    expect(error.message).toContain("before the assistant's greeting")
  }, 60_000)

  it('assistant first: an assistant that does not greet within 20 s fails with assistant_opening', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, {
      assistantFirstPrompt: 'Juniper Table, good evening.',
      assistantFaults: { ackDelayMs: 30_000 },
    })
    const error = await failureOf(runLiveConversation(options))
    expect(error).toMatchObject({ terminationReason: 'assistant_opening', stage: 'response_collection' })
  }, 60_000)
})

describe('live RUN limits and validity', () => {
  it('an unknown acoustic preset fails at input_setup before any session opens', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, { condition: 'underwater' })
    const error = await failureOf(runLiveConversation(options))
    expect(error).toMatchObject({ stage: 'input_setup' })
    expect(error.message).toContain('underwater')
    expect(server.stats().openConnections).toBe(0)
  })

  it('a call that never drains ends at the maximum duration, counted from the relay start', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, { rules: { maxDurationMs: 9_000 } })
    const conversation = await runLiveConversation(options)
    expect(conversation.termination_reason).toBe('duration_limit')
    expect(conversation.call.stoppedBy).toBe('step_limit')
    // The loop stops at the limit; the work grace may run a little longer only while delegated work is pending.
    expect(conversation.call.endedAtMs).toBeGreaterThanOrEqual(9_000)
    expect(conversation.call.endedAtMs).toBeLessThan(9_000 + 5_000)
    expect(conversation.finish_observed_ms).toBeNull()
    expect(conversation.completion_signal).toBeNull()
  }, 60_000)

  it('the same call with a replayed caller silenced at 4 s ends once the drain is satisfied, not at the limit', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    let nowMs = 0
    const { options } = offlineLiveCall(server, scenario, { rules: { maxDurationMs: 30_000 } })
    const silencedFromMs = 4_000
    const conversation = await runLiveConversation({
      ...options,
      hooks: {
        ...options.hooks,
        afterStep: (stepMs) => {
          nowMs = stepMs
          options.hooks?.afterStep?.(stepMs)
        },
      },
      recordedCallerDone: () => (nowMs >= silencedFromMs ? 'replayed_caller_silenced' : null),
    })
    expect(conversation.termination_reason).toBe('response_completed')
    // The signal is the silence, seen at the first step from 4 s (this call gives no other before 9 s: above).
    expect(conversation.finish_observed_ms).toBeGreaterThanOrEqual(silencedFromMs)
    expect(conversation.finish_observed_ms).toBeLessThan(silencedFromMs + 2 * options.clock.tickMs)
    expect(conversation.drain_revocations).toEqual([])
    expect(conversation.completion_signal).toBe('replayed_caller_silenced')
    // The drain still holds: its wait after the signal.
    const drainMs = options.rules?.drainMs as number
    expect(conversation.call.endedAtMs).toBeGreaterThanOrEqual(silencedFromMs + drainMs)
    expect(conversation.call.endedAtMs).toBeLessThan(30_000)
  }, 60_000)

  it('a call whose caller has nothing more to say ends once its recording has played out, not at the limit', async () => {
    // As in a replay whose tools answer from the cassette: nothing departs, but no signal comes either (here the
    // caller's last line is no farewell; there the recorded outputs leave the state unverified).
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const call = () =>
      offlineLiveCall(server, scenario, {
        callerLines: ['Great, that all sounds right.'],
        rules: { maxDurationMs: 30_000 },
      }).options
    const unended = await runLiveConversation(call())
    expect(unended.termination_reason).toBe('duration_limit')
    // The recording played out at 15 s, after its caller's last line and while the assistant answers it. The probe
    // reads the media time it is asked at.
    const playedOutFromMs = 15_000
    const options = call()
    const conversation = await runLiveConversation({
      ...options,
      recordedCallerDone: (nowMs) => (nowMs >= playedOutFromMs ? 'replayed_caller_played_out' : null),
    })
    expect(conversation.termination_reason).toBe('response_completed')
    expect(conversation.completion_signal).toBe('replayed_caller_played_out')
    expect(conversation.finish_observed_ms).toBeGreaterThanOrEqual(playedOutFromMs)
    expect(conversation.finish_observed_ms).toBeLessThan(playedOutFromMs + 2 * options.clock.tickMs)
    expect(conversation.drain_revocations).toEqual([])
    // The drain waited for the assistant's answer to be over, and then for the quiet after it.
    const lastReply = conversation.call.timeline.lines().at(-1)
    expect(lastReply?.role).toBe('assistant')
    const rules = options.rules as LiveCallRules
    expect(conversation.call.endedAtMs).toBeGreaterThanOrEqual((lastReply?.endMs ?? 0) + rules.finalQuietMs)
    expect(conversation.call.endedAtMs).toBeGreaterThanOrEqual(playedOutFromMs + rules.drainMs)
    expect(conversation.call.endedAtMs).toBeLessThanOrEqual(
      (lastReply?.endMs ?? 0) + rules.finalQuietMs + 2 * options.clock.tickMs,
    )
  }, 60_000)

  it('a genuine ending already draining when the recording plays out is the one the call ends on', async () => {
    // A replay that follows its recording: the recording's own ending (here the fallback's signal at the goodbye)
    // was given before the recording's end, which is when it plays out.
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const call = () => offlineLiveCall(server, scenario, { rules: { maxDurationMs: 60_000 } }).options
    const recorded = await runLiveConversation(call())
    expect(recorded.completion_signal).toBe('verified_outcome_and_natural_closing')
    const playedOutFromMs = (recorded.finish_observed_ms ?? 0) + 200
    expect(playedOutFromMs).toBeLessThan(recorded.call.endedAtMs)
    const conversation = await runLiveConversation({
      ...call(),
      recordedCallerDone: (nowMs) => (nowMs >= playedOutFromMs ? 'replayed_caller_played_out' : null),
    })
    expect(conversation.completion_signal).toBe('verified_outcome_and_natural_closing')
    expect(conversation.finish_observed_ms).toBe(recorded.finish_observed_ms)
    expect(conversation.call.endedAtMs).toBe(recorded.call.endedAtMs)
  }, 60_000)

  it('a frontend-only caller that delegates makes the simulation invalid (unsupported_caller_delegation)', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, {
      callerBackend: null,
      callerDelegatesOn: (line) => (line.startsWith('Great') ? { name: 'think', arguments: {} } : null),
      rules: { maxDurationMs: 20_000 },
    })
    const conversation = await runLiveConversation(options)
    expect(conversation.validity).toMatchObject({
      scope: 'frontend_only_caller_delegation',
      status: 'invalid',
      target_metrics_eligible: false,
      reason: 'unsupported_caller_delegation',
      unexpected_delegation_count: 1,
    })
    expect(conversation.validity.delegation_ids).toHaveLength(1)
    // The caller session asked for a client delegation: its own session.start said so.
    expect(conversation.caller.session.startSent?.event).toMatchObject({
      session: { delegation: { type: 'client' } },
    })
  }, 60_000)

  it('the preset shapes what the assistant heard: under telephony its track differs from the caller’s voice', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, {
      condition: 'telephony',
      rules: { maxDurationMs: 8_000 },
    })
    // The caller's voice as it arrived (its session's log keeps only each delta's size).
    const sentByCaller: Int16Array[] = []
    alsoWhenStarted(options, (participants) =>
      participants.caller.subscribe(({ event }) => {
        if (event.type === 'session.output_audio.delta') sentByCaller.push(pcm16FromBase64(event.delta))
      }),
    )
    const conversation = await runLiveConversation(options)
    expect(conversation.caller.session.log.events.some((received) => received.outputAudioBytes)).toBe(true)
    const voice = concatPcm16(sentByCaller)
    expect(voice.length).toBeGreaterThan(24_000)
    const heard = conversation.call.timeline.recorder.render().caller
    // The caller spoke from 100 ms (its first chunk); compare the assistant's input over the same stretch.
    const offset = 2_400
    const window = heard.subarray(offset, offset + voice.length)
    let differing = 0
    for (let index = 0; index < window.length; index++) if (window[index] !== voice[index]) differing++
    expect(differing / window.length).toBeGreaterThan(0.5)
    expect(conversation.audio_realism.metadata.condition).toBe('telephony')
    expect(conversation.audio_realism.metadata.observations.processed_frames).toBeGreaterThan(0)
    // Under the clean preset the same stretch is the caller's voice sample for sample.
    const clean = await runLiveConversation(
      offlineLiveCall(server, scenario, { condition: 'clean', rules: { maxDurationMs: 8_000 } }).options,
    )
    const cleanHeard = clean.call.timeline.recorder.render().caller.subarray(offset, offset + voice.length)
    expect(Array.from(cleanHeard.subarray(0, 48_000))).toEqual(Array.from(voice.subarray(0, 48_000)))
  }, 60_000)
})

describe('live RUN endings after the call', () => {
  it('delegated work still pending after the work grace is pending_work_timeout, with the call kept', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    // The limit falls just after the booking was delegated, and there is no grace to finish it.
    const { options } = offlineLiveCall(server, scenario, { rules: { maxDurationMs: 5_300, workGraceMs: 0 } })
    const conversation = await runLiveConversation(options)
    expect(conversation.call.delegationIds).toHaveLength(1)
    expect(conversation.termination_reason).toBe('pending_work_timeout')
    expect(conversation.failure).toMatchObject({
      stage: 'response_collection',
      reason: 'pending_work_timeout',
    })
    expect(conversation.call.closeOutcome.type).toBe('closed')
    // With a grace the same call settles its work and ends at the limit instead.
    const graced = await runLiveConversation(
      offlineLiveCall(server, scenario, { rules: { maxDurationMs: 5_300, workGraceMs: 5_000 } }).options,
    )
    expect(graced.termination_reason).toBe('duration_limit')
    expect(graced.failure).toBeNull()
  }, 60_000)

  it('a session that never confirms its close makes the call cleanup_timeout, both sessions shut down', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, {
      callerFaults: { withholdSessionClosed: true },
      rules: { maxDurationMs: 3_000, cleanupTimeoutMs: 500 },
    })
    const conversation = await runLiveConversation(options)
    expect(conversation.termination_reason).toBe('cleanup_timeout')
    expect(conversation.failure?.message).toContain('500 ms')
    expect(conversation.caller.closeOutcome.type).toBe('local_shutdown')
    expect(conversation.caller.audio_duration_ms).toBeNull()
  }, 60_000)

  it('a caller session the server ends mid-call is caller_connection', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const { options } = offlineLiveCall(server, scenario, {
      callerFaults: { serverClose: { atAudioMs: 2_000, reason: 'connection_lost' } },
    })
    const error = await failureOf(runLiveConversation(options))
    expect(error).toMatchObject({ terminationReason: 'caller_connection', stage: 'response_collection' })
  }, 60_000)

  it('is byte-identical for the same input on fresh servers', async () => {
    const scenario = await bundledRunScenario('run_002_booking_missing_name')
    const play = async () => {
      const fresh = await startOfflineLiveServer()
      try {
        const conversation = await runLiveConversation(offlineLiveCall(fresh, scenario).options)
        return conversation.call.timeline.recorder.render()
      } finally {
        await fresh.close()
      }
    }
    const [a, b] = [await play(), await play()]
    expect(a.caller.length).toBeGreaterThan(24_000 * 20)
    expect(Buffer.from(a.caller.buffer).equals(Buffer.from(b.caller.buffer))).toBe(true)
    expect(Buffer.from(a.assistant.buffer).equals(Buffer.from(b.assistant.buffer))).toBe(true)
  }, 60_000)
})
