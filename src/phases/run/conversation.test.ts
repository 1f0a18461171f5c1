// The offline RUN conversation: a bundled scenario played through the scripted caller against the assistant
// under test on the offline GPT-Live server, on the virtual clock, graded by grading/run.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gradeRun } from '../../grading/run/run-outcome.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import {
  ARCHITECTURES,
  bundledRunScenario,
  DEFAULT_COMPLETION,
  playBundled,
} from './conversation.test-helpers.ts'
import { observeRunConversation } from './observe.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

const digest = (samples: Int16Array) => createHash('sha256').update(samples).digest('hex')

describe.each(Object.keys(ARCHITECTURES) as (keyof typeof ARCHITECTURES)[])(
  'offline RUN call (%s)',
  (architecture) => {
    it('the caller opens, waits for each reply, says goodbye and finishes; the call drains and grades', async () => {
      const scenario = await bundledRunScenario('run_001_booking_complete')
      const conversation = await playBundled(server, scenario, architecture)
      expect(conversation.termination_reason).toBe('response_completed')
      expect(conversation.caller_actions).toEqual({ OPENING: 1, SPEAK: 2, STOP: 1 })
      expect(conversation.call.closeOutcome.type).toBe('closed')
      const { plan, call } = conversation
      // Every line after the opening starts after the assistant's voice, and the caller never talks over it.
      for (const [index, utterance] of plan.entries()) {
        if (index === 0) continue
        const previousEnd = plan[index - 1]?.endMs ?? 0
        const onset = call.listener.onsetAfter(previousEnd)
        expect(onset).not.toBeNull()
        expect(onset as number).toBeLessThan(utterance.startMs)
        const overlapping = call.listener.voiced.filter(
          (v) => v.start_ms < utterance.endMs && v.end_ms > utterance.startMs,
        )
        expect(overlapping).toEqual([])
      }
      // The drain: at least 1.5 s after the finish signal (the end of the goodbye).
      expect(conversation.finish_observed_ms).toBe(plan.at(-1)?.endMs)
      expect(conversation.completion_signal).toBe('caller_finish_tool')
      expect(call.endedAtMs).toBeGreaterThanOrEqual((conversation.finish_observed_ms ?? 0) + 1_500)

      const { observation, interaction } = observeRunConversation(conversation)
      const grade = gradeRun(observation, scenario.expected)
      expect(grade.tools.matched_tool_call_count).toBe(1)
      expect(grade.procedure?.critical_procedure_passed).toBe(true)
      expect(grade.outcome_state_satisfied).toBe(true)
      expect(grade.assessment.checks.filter((check) => check.status === 'failed' && check.required)).toEqual(
        [],
      )
      expect(grade.task_completed).toBe(true)
      // Three requests answered; the goodbye is a closing (a STOP), not an opportunity.
      expect(interaction.metrics.response_opportunities).toMatchObject({
        response_total: 3,
        response_count: 3,
        response_excluded_count: 1,
      })
      expect(interaction.metrics.response_exclusion_reasons).toEqual({ caller_closing: 1 })
      expect(interaction.metrics.interruption_rate).toBe(0)
    }, 60_000)

    it('is byte-identical for the same input on fresh servers', async () => {
      const scenario = await bundledRunScenario('run_002_booking_missing_name')
      const second = await startOfflineLiveServer()
      try {
        const [a, b] = [
          await playBundled(server, scenario, architecture),
          await playBundled(second, scenario, architecture),
        ]
        const render = (run: typeof a) => run.call.timeline.recorder.render()
        expect(digest(render(a).caller)).toBe(digest(render(b).caller))
        expect(digest(render(a).assistant)).toBe(digest(render(b).assistant))
        expect(a.plan).toEqual(b.plan)
        expect(observeRunConversation(a).observation.transcript).toEqual(
          observeRunConversation(b).observation.transcript,
        )
      } finally {
        await second.close()
      }
    }, 60_000)
  },
)

describe('openings and interruptions', () => {
  it('assistant-first: the opening prompt is spoken as commentary before the caller says anything', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const conversation = await playBundled(
      server,
      scenario,
      'responses',
      'Greet the caller as Juniper Table.',
    )
    const firstAssistant = conversation.call.listener.onsetAfter(0)
    expect(firstAssistant).not.toBeNull()
    expect(conversation.plan[0]?.startMs).toBeGreaterThan(firstAssistant as number)
    const sent = conversation.call.assistant.session.log.events
    expect(sent.some(({ event }) => event.type === 'session.commentary.appended')).toBe(true)
    expect(conversation.termination_reason).toBe('response_completed')
  }, 60_000)

  it('an interrupt item barges in while the assistant is speaking', async () => {
    const scenario = await bundledRunScenario('run_010_interrupted_alternative')
    const conversation = await playBundled(server, scenario, 'responses')
    const barge = conversation.plan.find((utterance) => utterance.action === 'INTERRUPT')
    expect(barge).toBeDefined()
    const overlapped = conversation.call.listener.voiced.some(
      (voiced) => voiced.start_ms < (barge?.startMs ?? 0) && voiced.end_ms > (barge?.startMs ?? 0),
    )
    expect(overlapped).toBe(true)
    // Attributed after the fact from the audio: one exercised barge-in, and the assistant yielded or not.
    const { turns } = observeRunConversation(conversation)
    expect(turns.barge_ins.exercised).toBe(1)
    expect(turns.yield_rate).not.toBeNull()
  }, 60_000)

  it('a call that never drains ends at the maximum duration and is not completed', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const conversation = await playBundled(server, scenario, 'responses', null, {
      ...DEFAULT_COMPLETION,
      maxDurationMs: 10_000,
    })
    expect(conversation.termination_reason).toBe('duration_limit')
    expect(conversation.call.endedAtMs).toBeLessThanOrEqual(10_000 + 100)
    expect(conversation.plan.every((utterance) => utterance.startMs < 10_000)).toBe(true)
    expect(conversation.finish_observed_ms).toBeNull()
    expect(conversation.completion_signal).toBeNull()
    const grade = gradeRun(observeRunConversation(conversation).observation, scenario.expected)
    expect(grade.assessment.checks.find((check) => check.id === 'conversation_completed')?.status).toBe(
      'failed',
    )
    expect(grade.task_completed).toBe(false)
  }, 60_000)

  it('four conversations at once on one server give the same bytes as one alone', async () => {
    const scenarios = await Promise.all(
      [
        'run_001_booking_complete',
        'run_007_cancel_authorized',
        'run_008_cancel_unauthorized',
        'run_011_cancel_corrected_authorization',
      ].map((id) => bundledRunScenario(id)),
    )
    const together = await Promise.all(scenarios.map((scenario) => playBundled(server, scenario, 'client')))
    const alone = await playBundled(server, scenarios[2] as (typeof scenarios)[number], 'client')
    const render = (run: typeof alone) => run.call.timeline.recorder.render()
    expect(digest(render(together[2] as typeof alone).assistant)).toBe(digest(render(alone).assistant))
    expect(together[2]?.plan).toEqual(alone.plan)
    expect(together.map((run) => run.termination_reason)).toEqual(Array(4).fill('response_completed'))
  }, 120_000)
})
