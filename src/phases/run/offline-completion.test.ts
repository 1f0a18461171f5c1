// The offline drain follows the live rules (§6): work that starts after the caller's finish signal revokes it, so
// the call waits for the assistant's answer to be said in full; a call that still ends with the assistant talking
// is recorded as cut off and cannot pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gradeRun } from '../../grading/run/run-outcome.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { bundledRunScenario, playBundled } from './conversation.test-helpers.ts'
import { assistantCutOff, terminationWithCutOff, transcriptWithCutLine } from './cut-off.ts'
import { observeRunConversation } from './observe.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

/** A caller whose goodbye also gives the missing name: the booking is made after its finish signal. */
async function goodbyeThatBooks() {
  const scenario = await bundledRunScenario('ref_002_booking_missing_name', 'reference-style.json')
  const parameters = scenario.simulation_parameters
  if (parameters === null) throw new Error('RUN scenario without parameters')
  parameters.agenda = parameters.agenda.filter((item) => item.action === 'finish')
  const goodbye = parameters.agenda[0]
  if (goodbye === undefined) throw new Error('no finish item')
  goodbye.response_hint = "It's under Okafor. Thanks, bye."
  return scenario
}

describe.each(['responses', 'client'] as const)('offline drain (%s)', (architecture) => {
  it('a tool that completes after the finish signal revokes the drain; the answer is said in full', async () => {
    const scenario = await goodbyeThatBooks()
    const conversation = await playBundled(server, scenario, architecture)
    const { call } = conversation
    expect(call.assistant.tools.executions().map((record) => record.name)).toEqual(['create_reservation'])
    const finishMs = conversation.finish_observed_ms as number
    const bookedMs = [...call.executionTimes.values()][0] as number
    expect(bookedMs).toBeGreaterThan(finishMs)
    expect(
      conversation.drain_revocations.some((revocation) => revocation.reason === 'evidence_changed'),
    ).toBe(true)
    expect(conversation.assistant_cut_off).toBe(false)
    expect(conversation.termination_reason).toBe('response_completed')
    const lastLine = call.timeline.lines().findLast((line) => line.role === 'assistant')
    expect(lastLine?.text).toBe(
      'Your reservation for Okafor and 3 guests is confirmed on 2026-08-18 at 18:30.',
    )
    // The call ended after that answer and the quiet after it.
    expect(call.endedAtMs).toBeGreaterThanOrEqual((lastLine?.endMs ?? 0) + 600)
    const grade = gradeRun(observeRunConversation(conversation).observation, scenario.expected)
    expect(grade.assessment.checks.find((check) => check.id === 'conversation_completed')?.status).toBe(
      'passed',
    )
  }, 60_000)
})

describe('a call that ends mid-utterance', () => {
  it('is cut off when speech is still buffered or the assistant was voiced up to the end', () => {
    const end = { endedAtMs: 10_000, withinMs: 0 }
    expect(assistantCutOff({ ...end, bufferedSpeech: true, lastAssistantVoiceEndMs: 2_000 })).toBe(true)
    expect(assistantCutOff({ ...end, bufferedSpeech: false, lastAssistantVoiceEndMs: 10_000 })).toBe(true)
    expect(assistantCutOff({ ...end, bufferedSpeech: false, lastAssistantVoiceEndMs: 9_300 })).toBe(false)
    expect(assistantCutOff({ ...end, bufferedSpeech: false, lastAssistantVoiceEndMs: null })).toBe(false)
  })

  it('does not count as completed, and its last assistant line is marked cut', () => {
    expect(terminationWithCutOff('response_completed', true)).toBe('assistant_cut_off')
    expect(terminationWithCutOff('duration_limit', true)).toBe('duration_limit')
    expect(terminationWithCutOff('response_completed', false)).toBe('response_completed')
    const lines = [
      { role: 'assistant' as const, text: 'One moment.', startMs: 0, endMs: 900 },
      { role: 'assistant' as const, text: 'Your', startMs: 1_500, endMs: 1_700 },
      { role: 'user' as const, text: 'Bye.', startMs: 1_600, endMs: 2_000 },
    ]
    expect(transcriptWithCutLine(lines, true).map((line) => line.cut)).toEqual([undefined, true, undefined])
    expect(transcriptWithCutLine(lines, false).some((line) => line.cut)).toBe(false)
  })
})
