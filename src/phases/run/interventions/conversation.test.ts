// Scheduled interventions in a whole offline call: a bundled RUN scenario played through the scripted caller on
// the offline server, with the interventions said at their cues on the virtual clock. These tests hold whether
// or not the offline assistant yields to a barge-in: they check where each cue fell and what the observed audio
// says about it, and only that a yield was measured, not which way it went.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syntheticSpeechDurationMs } from '../../../audio/synthetic-voice.ts'
import type { Interval } from '../../../metrics/intervals.ts'
import { type OfflineSessionScript, startOfflineLiveServer } from '../../../testing/live-server/index.ts'
import { StageError } from '../../engine/stage.ts'
import { ARCHITECTURES, bundledRunScenario, playBundled } from '../conversation.test-helpers.ts'
import { runOfflineConversation } from '../conversation.ts'
import { observeRunConversation } from '../observe.ts'
import { DEFAULT_TURN_TAKING, scriptedCallerLines } from '../offline-caller.ts'
import { bargeInYields, summarizeTurnMetrics } from '../turn-metrics.ts'
import { InterventionSchema } from './schema.ts'
import { ceilToStep, whileSpeakingCueMs } from './triggers.ts'

const STEP_MS = 100
const LEAD_IN_MS = 200
const digest = (samples: Int16Array) => createHash('sha256').update(samples).digest('hex')

function voicedWithin(voiced: readonly Interval[], from: number, to: number): number {
  return voiced.reduce((sum, v) => sum + Math.max(0, Math.min(to, v.end_ms) - Math.max(from, v.start_ms)), 0)
}

async function bookingCall() {
  const scenario = await bundledRunScenario('run_001_booking_complete')
  // Said the moment the caller's opening ends: the assistant has not started to answer yet.
  const quietCueMs = ceilToStep(LEAD_IN_MS + syntheticSpeechDurationMs(scenario.input.text), STEP_MS)
  const interventions = [
    { id: 'quiet', kind: 'barge_in', text: 'Sorry, one more thing.', trigger: { at_ms: quietCueMs } },
    {
      id: 'cut',
      kind: 'barge_in',
      text: 'Wait, is that for two?',
      trigger: { while_assistant_speaking_ms: 1_500 },
    },
  ].map((item) => InterventionSchema.parse(item))
  return { scenario, interventions, quietCueMs }
}

let server: Awaited<ReturnType<typeof startOfflineLiveServer>>
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

describe.each(Object.keys(ARCHITECTURES) as (keyof typeof ARCHITECTURES)[])(
  'scheduled barge-ins in an offline call (%s)',
  (architecture) => {
    it('one lands while the assistant is silent (unexercised), one while it talks (exercised, yield measured)', async () => {
      const { scenario, interventions, quietCueMs } = await bookingCall()
      const conversation = await playBundled(server, scenario, architecture, null, undefined, interventions)
      const { call, plan } = conversation
      const assistant = call.timeline
        .speechIntervals()
        .assistant.map((interval) => ({ start_ms: interval.startMs, end_ms: interval.endMs }))
      const [quiet, cut] = conversation.interventions
      expect(conversation.interventions.map((outcome) => outcome.id)).toEqual(['quiet', 'cut'])

      expect(quiet).toMatchObject({
        cue_ms: quietCueMs,
        exercised: false,
        yielded: null,
        yield_latency_ms: null,
        unexercised_reason: 'assistant_silent',
      })
      expect(voicedWithin(assistant, quietCueMs - 1_000, quietCueMs)).toBeLessThan(300)

      // The cue is where the caller heard the assistant's first 1.5 s stretch of voice, and the observed
      // assistant track was voiced through it.
      const cutCue = cut?.cue_ms as number
      const trigger = interventions[1]?.trigger
      if (trigger?.type !== 'while_assistant_speaking') throw new Error('expected a condition trigger')
      expect(whileSpeakingCueMs(trigger, call.listener.voiced, 0, cutCue, STEP_MS)).toBe(cutCue)
      expect(voicedWithin(assistant, cutCue - 1_500, cutCue)).toBeGreaterThanOrEqual(1_300)
      expect(cut).toMatchObject({ exercised: true, unexercised_reason: null })
      expect(typeof cut?.yielded).toBe('boolean')
      if (cut?.yielded === true) expect(cut.yield_latency_ms).toBeGreaterThanOrEqual(0)
      else expect(cut?.yield_latency_ms).toBeNull()

      // Both are in the plan at their cues as the caller's interruptions, and the assistant heard the words.
      const scheduled = plan.filter((utterance) => utterance.interventionId !== undefined)
      expect(
        scheduled.map((utterance) => [utterance.interventionId, utterance.action, utterance.startMs]),
      ).toEqual([
        ['quiet', 'INTERRUPT', quietCueMs],
        ['cut', 'INTERRUPT', cutCue],
      ])
      expect(conversation.caller_actions.INTERRUPT).toBe(2)
      const heard = call.timeline
        .lines()
        .filter((line) => line.role === 'user')
        .map((line) => line.text)
        .join(' ')
      expect(heard).toContain('Wait, is that for two?')
      // Folded into run_turns: the exercised barge-in is also found after the fact in the audio (caller speech
      // starting while the assistant talks, as observe.ts finds cues); it is counted once, as scheduled.
      const speech = call.timeline.speechIntervals()
      const foundCues = speech.caller
        .filter((segment) =>
          assistant.some((v) => v.start_ms < segment.startMs && segment.startMs < v.end_ms),
        )
        .map((segment) => segment.startMs)
      expect(foundCues.some((cue) => Math.abs(cue - cutCue) <= 50)).toBe(true)
      // Nothing else in this call is a barge-in: the two scheduled ones are all run_turns counts.
      const yields = bargeInYields(foundCues, conversation.interventions, assistant)
      expect(yields).toEqual(
        [quiet, cut].map((outcome) => ({
          cue_ms: outcome?.cue_ms,
          exercised: outcome?.exercised,
          yielded: outcome?.yielded,
          yield_latency_ms: outcome?.yield_latency_ms,
        })),
      )
      expect(summarizeTurnMetrics(yields, []).barge_ins).toEqual({ exercised: 1, unexercised: 1 })
      // The scripted lines still held (the plan was re-checked on the observed call) and the call closed.
      expect(plan.filter((utterance) => utterance.interventionId === undefined)).toHaveLength(4)
      expect(call.closeOutcome.type).toBe('closed')
    }, 60_000)
  },
)

describe('scheduled interventions offline', () => {
  it('are byte-identical across runs on fresh servers', async () => {
    const { scenario, interventions } = await bookingCall()
    const second = await startOfflineLiveServer()
    try {
      const a = await playBundled(server, scenario, 'client', null, undefined, interventions)
      const b = await playBundled(second, scenario, 'client', null, undefined, interventions)
      const render = (run: typeof a) => run.call.timeline.recorder.render()
      expect(digest(render(a).caller)).toBe(digest(render(b).caller))
      expect(digest(render(a).assistant)).toBe(digest(render(b).assistant))
      expect(a.plan).toEqual(b.plan)
      expect(a.interventions).toEqual(b.interventions)
    } finally {
      await second.close()
    }
  }, 60_000)

  it('a backchannel overlaps the assistant’s speech, is not a request, and the next line still waits for a reply', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const ack = InterventionSchema.parse({
      id: 'ack',
      kind: 'backchannel',
      text: 'Mm-hmm.',
      trigger: { while_assistant_speaking_ms: 1_000, after_caller_line: 1 },
    })
    const conversation = await playBundled(server, scenario, 'responses', null, undefined, [ack])
    const [outcome] = conversation.interventions
    expect(outcome).toMatchObject({ kind: 'backchannel', exercised: true, yielded: null })
    const index = conversation.plan.findIndex((utterance) => utterance.interventionId === 'ack')
    const said = conversation.plan[index]
    const next = conversation.plan[index + 1]
    if (said === undefined || next === undefined) throw new Error('the backchannel and a line after it')
    expect(said.action).toBe('BACKCHANNEL')
    // It came while the caller heard the assistant talking ...
    const talking = conversation.call.listener.voiced.find(
      (voiced) => voiced.start_ms < said.startMs && said.startMs <= voiced.end_ms,
    )
    expect(talking).toBeDefined()
    // ... and the caller's next line waited for the assistant's reply to the line before it to go quiet,
    // as after any line (the backchannel did not count as a new turn of its own).
    const lineBefore = conversation.plan[index - 1]
    const reply = conversation.call.listener.onsetAfter(lineBefore?.endMs ?? 0)
    expect(reply).not.toBeNull()
    expect(reply as number).toBeLessThan(said.startMs)
    const lastVoiceBefore = conversation.call.listener.voiced.findLast(
      (voiced) => voiced.start_ms < next.startMs,
    )
    expect(next.startMs).toBeGreaterThanOrEqual(
      (lastVoiceBefore?.end_ms ?? 0) + DEFAULT_TURN_TAKING.replyQuietMs,
    )
    const { interaction } = observeRunConversation(conversation)
    expect(interaction.metrics.response_exclusion_reasons).toMatchObject({ backchannel: 1 })
  }, 60_000)

  it('assistant-first: a cue during the greeting, before the caller opened, is never said', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const early = InterventionSchema.parse({
      id: 'early',
      kind: 'barge_in',
      text: 'Hello?',
      trigger: { at_ms: 100 },
    })
    const conversation = await playBundled(
      server,
      scenario,
      'responses',
      'Greet the caller as Juniper Table.',
      undefined,
      [early],
    )
    expect(conversation.interventions).toEqual([
      {
        id: 'early',
        kind: 'barge_in',
        cue_ms: null,
        end_ms: null,
        exercised: false,
        yielded: null,
        yield_latency_ms: null,
        unexercised_reason: 'before_opening',
      },
    ])
    expect(conversation.plan.some((utterance) => utterance.interventionId !== undefined)).toBe(false)
    expect(conversation.plan[0]?.action).toBe('OPENING')
    expect(conversation.termination_reason).toBe('response_completed')
  }, 60_000)

  it('hearing holds only what the caller says: no intervention id or trigger reaches the assistant', async () => {
    const spy = await startOfflineLiveServer()
    const scripts: OfflineSessionScript[] = []
    const register = spy.registerSession.bind(spy)
    spy.registerSession = (token, script) => {
      scripts.push(script)
      register(token, script)
    }
    try {
      const scenario = await bundledRunScenario('run_001_booking_complete')
      const parameters = scenario.simulation_parameters
      if (parameters === null) throw new Error('RUN scenario without parameters')
      const sentinel = InterventionSchema.parse({
        id: 'SENTINEL_intervention_id_7f3a',
        kind: 'barge_in',
        text: 'Hold on a second.',
        trigger: { while_assistant_speaking_ms: 1_234, occurrence: 1, after_caller_line: 0 },
      })
      const conversation = await playBundled(spy, scenario, 'responses', null, undefined, [sentinel])
      expect(conversation.interventions[0]?.cue_ms).not.toBeNull()
      const spoken = new Set([
        ...scriptedCallerLines(parameters, scenario.input.text).map((line) => line.text),
        sentinel.text,
      ])
      expect(scripts.some((script) => script.hearing.some((u) => u.text === sentinel.text))).toBe(true)
      for (const script of scripts) {
        for (const utterance of script.hearing) expect(spoken.has(utterance.text)).toBe(true)
        const everything = JSON.stringify(script)
        for (const hidden of [
          'SENTINEL_intervention_id_7f3a',
          'while_assistant_speaking',
          '1234',
          'barge_in',
        ]) {
          expect(everything).not.toContain(hidden)
        }
      }
      const sessionText = JSON.stringify(conversation.call.assistant.sessionConfig)
      expect(sessionText).not.toContain('SENTINEL_intervention_id_7f3a')
    } finally {
      await spy.close()
    }
  }, 60_000)

  it('a condition counted from the goodbye or a line the script does not have is refused before the call', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const parameters = scenario.simulation_parameters
    if (parameters === null) throw new Error('RUN scenario without parameters')
    const lines = scriptedCallerLines(parameters, scenario.input.text)
    const beyond = InterventionSchema.parse({
      id: 'beyond',
      kind: 'barge_in',
      text: 'Hm?',
      trigger: { while_assistant_speaking_ms: 1_000, after_caller_line: lines.length - 1 },
    })
    const unused = () => {
      throw new Error('no session may open')
    }
    const attempt = runOfflineConversation({
      setup: {
        server: { registerSession: unused, baseURL: 'http://127.0.0.1:9/v1' },
        visibleInput: {} as never,
        architecture: {} as never,
        models: {} as never,
        stepMs: STEP_MS,
        assistantFirstPrompt: null,
      },
      lines,
      application: {} as never,
      rehearsalApplication: unused,
      interventions: [beyond],
    })
    await expect(attempt).rejects.toBeInstanceOf(StageError)
    await expect(attempt).rejects.toMatchObject({ stage: 'input_setup' })
    await expect(attempt).rejects.toThrow(
      `Intervention "beyond": trigger.after_caller_line is ${lines.length - 1}, but the scripted caller has ${lines.length} lines (0 is the opening, ${lines.length - 1} the goodbye, after which nothing is said); use 0 to ${lines.length - 2}.`,
    )
  })
})
