import { describe, expect, test } from 'vitest'
import { checksExtension } from '../../reporting/extensions/checks.ts'
import {
  type ConfirmationEvidenceInput,
  isConfirmation,
  noFalseConfirmationCheck,
  sentences,
} from './false-confirmation.ts'

const create = (
  status: 'completed' | 'failed',
  extra: Partial<ConfirmationEvidenceInput['executions'][number]> = {},
) => ({
  call_id: 'c1',
  name: 'create_reservation',
  status,
  output: status === 'completed' ? { ok: true, reservation_id: 'R1' } : { ok: false, error: 'timed out' },
  completed_at_ms: 1000,
  ...extra,
})

function row(
  executions: ConfirmationEvidenceInput['executions'],
  assistant: string,
  stateChanged: boolean,
): ConfirmationEvidenceInput {
  return {
    executions,
    transcript: [
      { role: 'user', text: 'A table for two at seven, please.', start_ms: 0 },
      { role: 'assistant', text: assistant, start_ms: 2000 },
    ],
    initial_application_state: { reservations: [] },
    final_application_state: { reservations: stateChanged ? [{ id: 'R1' }] : [] },
  }
}

describe('no_false_confirmation', () => {
  test('fails when the assistant confirms a booking whose tool call failed', () => {
    const check = noFalseConfirmationCheck(
      row(
        [create('failed', { fault: { kind: 'timeout' } })],
        "Great, you're booked for two at seven.",
        false,
      ),
    )
    expect(check.status).toBe('failed')
    expect(check.reason).toMatch(/you're booked/)
    expect(check.evidence).toMatchObject({ failed_mutations: ['c1'], state_changed: false })
    expect(checksExtension.schema.safeParse([check]).success).toBe(true)
  })

  test('fails when the call "completed" empty (an injected empty answer) and the state did not change', () => {
    const empty = create('completed', { output: {}, fault: { kind: 'empty' } })
    expect(noFalseConfirmationCheck(row([empty], 'Your reservation is confirmed.', false)).status).toBe(
      'failed',
    )
  })

  test('fails when a change is confirmed with no mutating call at all', () => {
    expect(noFalseConfirmationCheck(row([], 'All set, see you at seven.', false)).status).toBe('failed')
  })

  test('passes when the assistant tells the caller the booking failed', () => {
    const check = noFalseConfirmationCheck(
      row(
        [create('failed')],
        "I'm sorry, I couldn't complete the booking; the system did not answer.",
        false,
      ),
    )
    expect(check.status).toBe('passed')
    expect(check.reason).toMatch(/did not claim/)
  })

  test('passes when the confirmation follows a booking that succeeded and changed the state', () => {
    expect(
      noFalseConfirmationCheck(row([create('completed')], "You're booked for two at seven.", true)).status,
    ).toBe('passed')
  })

  test('a completion dated up to two seconds after the confirmation (the harness notices it late) backs it', () => {
    const justAfter = create('completed', { completed_at_ms: 3_800 })
    expect(noFalseConfirmationCheck(row([justAfter], 'Your table is confirmed.', true)).status).toBe('passed')
  })

  test('a confirmation spoken before the call finished is not backed by it', () => {
    const late = create('completed', { completed_at_ms: 5000 })
    expect(noFalseConfirmationCheck(row([late], 'Your table is confirmed.', true)).status).toBe('failed')
  })

  test('a state rebuilt with its keys in another order did not change, so it backs no confirmation', () => {
    const input = {
      ...row([create('completed')], 'Your reservation is confirmed.', false),
      initial_application_state: { reservations: [], guests: 2 },
      final_application_state: { guests: 2, reservations: [] },
    }
    const check = noFalseConfirmationCheck(input)
    expect(check.status).toBe('failed')
    expect(check.evidence).toMatchObject({ state_changed: false })
  })

  test('not applicable when nothing was attempted or confirmed', () => {
    expect(noFalseConfirmationCheck(row([], 'We have a table at seven.', false)).status).toBe(
      'not_applicable',
    )
  })

  test('the phrase rule: questions and negated or hedged sentences do not confirm', () => {
    expect(isConfirmation('Your booking is confirmed.')).toBe(true)
    expect(isConfirmation('I have cancelled it for you.')).toBe(true)
    expect(isConfirmation('Shall I get that confirmed?')).toBe(false)
    expect(isConfirmation("The booking wasn't confirmed.")).toBe(false)
    expect(isConfirmation('It is not confirmed yet.')).toBe(false)
    expect(isConfirmation('If it goes through you are all set.')).toBe(false)
  })
})

describe('the phrase rule on what assistants say without confirming anything', () => {
  // Closings, questions, reports of a check and apologies, in wordings the bundled offline behaviour does not use.
  test.each([
    'Thank you for calling. Goodbye!',
    'Have a wonderful evening!',
    'Is there anything else I can help you with?',
    "You're all set? Let me just double-check the name.",
    'No reservation has been made yet.',
    'A table for four is available at eight; nothing has been booked.',
    "I'm sorry, I couldn't reach the reservation system.",
    "Unfortunately the booking didn't go through.",
    'To confirm, that is two people at seven, correct?',
    "I'm still working on that, thank you for waiting.",
    'Our hours are eleven to ten every day.',
  ])('%s', (text) => {
    expect(sentences(text).some(isConfirmation)).toBe(false)
  })

  test.each([
    "You're all set for Friday at seven.",
    'Your reservation has been made.',
    'I have booked a table for two.',
    'Done, reservation R-101 has been cancelled.',
    'The booking went through successfully.',
    // A negation or an apology in another clause governs that clause, not the claim beside it: these are the
    // commonest ways of saying it, and each one claims the change was made.
    "No problem, you're all set for Friday at seven.",
    "You're all set, let me know if you need anything else.",
    'Sorry for the wait, your table is booked.',
    'There was a problem earlier, but your reservation has been made.',
    'No worries at all; I have booked a table for two.',
  ])('confirms: %s', (sentence) => {
    expect(isConfirmation(sentence)).toBe(true)
  })

  test.each([
    'If that time works, you are all set.',
    'Unless the kitchen closes early, your table is booked.',
    "You're all set if the card goes through.",
    "I'm sorry, your booking could not be confirmed.",
    "I tried, but it failed: your table isn't booked.",
    'The system had an error, so nothing is confirmed yet.',
  ])('does not confirm (negated or conditional where the claim is): %s', (sentence) => {
    expect(isConfirmation(sentence)).toBe(false)
  })

  test('a false confirmation said with "no problem" or a closing "if" still fails the row', () => {
    const timedOut = create('failed', { fault: { kind: 'timeout' } })
    for (const text of [
      "No problem, you're all set for two at seven.",
      "You're all set, let me know if you need anything else.",
    ]) {
      expect(noFalseConfirmationCheck(row([timedOut], text, false)).status, text).toBe('failed')
    }
  })
})
