// The caller-experience checks beyond no_false_confirmation, on constructed observations.
import { describe, expect, test } from 'vitest'
import type { FaultsRecord } from '../../faults/events.ts'
import { checksExtension } from '../../reporting/extensions/checks.ts'
import { deadAirCheck } from './dead-air.ts'
import { callerExperienceChecks } from './index.ts'
import type { FaultCheckInput } from './input.ts'
import { longestUncovered } from './intervals.ts'
import { isProgressStatement, progressCheck } from './progress.ts'
import { verificationCheck } from './verification.ts'

const check = (name: string, call_id: string, extra: object = {}) => ({
  call_id,
  name,
  status: 'completed' as const,
  output: { ok: true, available: true },
  completed_at_ms: 2_000,
  ...extra,
})
const wrong = check('check_availability', 'c1', {
  fault: { kind: 'wrong_data' as const, profile: 'p', call_index: 0, changed: ['available'] },
})

function input(overrides: Partial<FaultCheckInput> = {}): FaultCheckInput {
  return {
    transcript: [],
    executions: [],
    initial_application_state: {},
    final_application_state: {},
    faults: null,
    experience: null,
    expects_verification: false,
    max_dead_air_ms: 1_000,
    ...overrides,
  }
}

const faults = (injected: FaultsRecord['injected']): FaultsRecord => ({
  profile: 'p',
  seed: 1,
  source: 'setting',
  injected,
  classes: [...new Set(injected.map((event) => event.kind))],
})

describe('verification_after_implausible_result', () => {
  test('required and failed when the scenario expects a second check and none came', () => {
    const result = verificationCheck(input({ expects_verification: true, executions: [wrong] }))
    expect(result).toMatchObject({ status: 'failed', required: true, evidence: { unverified: ['c1'] } })
  })

  test('passes when the same tool is called again after the implausible answer', () => {
    const result = verificationCheck(
      input({ expects_verification: true, executions: [wrong, check('check_availability', 'c2')] }),
    )
    expect(result).toMatchObject({ status: 'passed', required: true })
  })

  test('not applicable (and not required) when the scenario expects none, or nothing answered wrongly', () => {
    expect(verificationCheck(input({ executions: [wrong] }))).toMatchObject({
      status: 'not_applicable',
      required: false,
    })
    expect(
      verificationCheck(
        input({ expects_verification: true, executions: [check('check_availability', 'c1')] }),
      ),
    ).toMatchObject({
      status: 'not_applicable',
    })
  })
})

describe('progress_statement_when_slow', () => {
  const slow = faults([
    { kind: 'slow', plane: 'tool', target: 'check_availability', index: 0, at_ms: 6_000, delay_ms: 3_000 },
  ])
  const said = (text: string, start_ms: number) => ({ role: 'assistant' as const, text, start_ms })

  test('a progress phrase that claims nothing done', () => {
    expect(isProgressStatement("I'm still checking on that.")).toBe(true)
    expect(isProgressStatement('Still working on it, thanks for your patience.')).toBe(true)
    expect(isProgressStatement("You're all set, thanks for waiting.")).toBe(false)
    expect(isProgressStatement('Our hours are eleven to ten.')).toBe(false)
  })

  test('fails when the caller heard nothing about progress past the dead-air limit of a long wait', () => {
    // The wait is 3000..6000 ms; "One moment" at 3000 is before the limit (4000) and does not count.
    const result = progressCheck(input({ faults: slow, transcript: [said('One moment.', 3_000)] }))
    expect(result).toMatchObject({ status: 'failed', required: false })
    expect(result.reason).toMatch(/3000 ms slow wait from 3000 ms/)
  })

  test("a timed-out tool's wait is a wait the caller sat through, as a slow one's", () => {
    const timedOut = faults([
      {
        kind: 'timeout',
        plane: 'tool',
        target: 'create_reservation',
        index: 0,
        at_ms: 8_000,
        delay_ms: 5_000,
      },
    ])
    const silent = progressCheck(input({ faults: timedOut, transcript: [said('One moment.', 3_000)] }))
    expect(silent.status).toBe('failed')
    expect(silent.reason).toMatch(/5000 ms timeout wait from 3000 ms/)
    const informed = progressCheck(
      input({ faults: timedOut, transcript: [said("I'm still working on that.", 5_000)] }),
    )
    expect(informed.status).toBe('passed')
  })

  test('passes when a progress statement came during the wait', () => {
    const result = progressCheck(
      input({ faults: slow, transcript: [said('Still checking, one moment please.', 4_500)] }),
    )
    expect(result.status).toBe('passed')
  })

  test('after a failed backend, "still working on it" is untruthful until new work starts', () => {
    const failed = faults([
      { kind: 'backend_error', plane: 'backend', target: 'delegation', index: 0, at_ms: 1_000 },
    ])
    const experience = {
      work_pending_ms: [
        { start_ms: 1_000, end_ms: 9_000 },
        { start_ms: 9_000, end_ms: 12_000 },
      ],
      assistant_heard_ms: [],
      caller_voiced_ms: [],
    }
    const untruthful = progressCheck(
      input({ faults: failed, experience, transcript: [said("I'm still working on that.", 3_500)] }),
    )
    expect(untruthful).toMatchObject({
      status: 'failed',
      evidence: { untruthful: ["I'm still working on that."] },
    })
    const newWork = progressCheck(
      input({ faults: failed, experience, transcript: [said("I'm still working on that.", 10_000)] }),
    )
    expect(newWork.status).toBe('passed')
  })

  test('not applicable without a long wait or a failed backend', () => {
    const short = faults([
      { kind: 'slow', plane: 'tool', target: 't', index: 0, at_ms: 2_000, delay_ms: 500 },
    ])
    expect(progressCheck(input({ faults: short })).status).toBe('not_applicable')
    expect(progressCheck(input()).status).toBe('not_applicable')
  })
})

describe('dead_air_while_pending', () => {
  const experience = (heard: { start_ms: number; end_ms: number }[]) => ({
    work_pending_ms: [{ start_ms: 1_000, end_ms: 5_000 }],
    assistant_heard_ms: heard,
    caller_voiced_ms: [{ start_ms: 0, end_ms: 1_000 }],
  })

  test('the longest silence inside a span, with where it starts', () => {
    expect(
      longestUncovered({ start_ms: 0, end_ms: 10 }, [
        { start_ms: 2, end_ms: 3 },
        { start_ms: 8, end_ms: 9 },
      ]),
    ).toEqual({
      ms: 5,
      start_ms: 3,
    })
    expect(longestUncovered({ start_ms: 0, end_ms: 10 }, [{ start_ms: 0, end_ms: 10 }]).ms).toBe(0)
  })

  test('fails past the limit, measured on what the caller heard, and is reported only', () => {
    const result = deadAirCheck(
      input({
        experience: experience([
          { start_ms: 1_200, end_ms: 1_800 },
          { start_ms: 4_000, end_ms: 5_000 },
        ]),
      }),
    )
    expect(result).toMatchObject({
      status: 'failed',
      required: false,
      evidence: { longest_ms: 2_200, longest_at_ms: 1_800 },
    })
  })

  test('passes when no silence is longer than the limit (a setting)', () => {
    const heard = [
      { start_ms: 1_200, end_ms: 2_000 },
      { start_ms: 2_900, end_ms: 3_800 },
      { start_ms: 4_500, end_ms: 5_000 },
    ]
    expect(deadAirCheck(input({ experience: experience(heard) })).status).toBe('passed')
    expect(deadAirCheck(input({ experience: experience(heard), max_dead_air_ms: 800 })).status).toBe('failed')
  })

  test("a silence after the assistant's question is the caller's to fill, not dead air; a hold question is not", () => {
    const said = (text: string, start_ms: number) => ({ role: 'assistant' as const, text, start_ms })
    const observed = {
      work_pending_ms: [{ start_ms: 1_000, end_ms: 8_000 }],
      assistant_heard_ms: [
        { start_ms: 1_200, end_ms: 2_000 },
        { start_ms: 2_600, end_ms: 4_000 },
        { start_ms: 7_400, end_ms: 8_000 },
      ],
      caller_voiced_ms: [
        { start_ms: 0, end_ms: 1_000 },
        { start_ms: 6_000, end_ms: 7_000 },
      ],
    }
    const checkWith = (second: string) =>
      deadAirCheck(
        input({
          experience: observed,
          transcript: [said('One moment.', 1_200), said(second, 2_600), said('Sure.', 7_400)],
        }),
      )
    const asked = checkWith('Is there anything else I can help you with?')
    expect(asked.status).toBe('passed')
    expect(asked.evidence).toMatchObject({ callers_turn: [{ start_ms: 4_000, ms: 2_000 }] })
    expect(checkWith('Your table is booked.')).toMatchObject({
      status: 'failed',
      evidence: { longest_ms: 2_000, longest_at_ms: 4_000 },
    })
    expect(checkWith('Could you hold on a moment?').status).toBe('failed')
  })

  test("after the call's last voice nobody is waiting: an unanswered delegation's silence to the call's end is not dead air", () => {
    const result = deadAirCheck(
      input({
        experience: {
          work_pending_ms: [{ start_ms: 1_000, end_ms: 10_000 }],
          assistant_heard_ms: [
            { start_ms: 1_200, end_ms: 2_000 },
            { start_ms: 2_500, end_ms: 6_000 },
          ],
          caller_voiced_ms: [{ start_ms: 0, end_ms: 1_000 }],
        },
      }),
    )
    expect(result.status).toBe('passed')
    expect(result.evidence).toMatchObject({ pending: [{ start_ms: 1_000, end_ms: 6_000 }] })
  })

  test('not assessed without the observation of it; not applicable when nothing was pending', () => {
    expect(deadAirCheck(input()).status).toBe('not_assessed')
    expect(
      deadAirCheck(
        input({ experience: { work_pending_ms: [], assistant_heard_ms: [], caller_voiced_ms: [] } }),
      ).status,
    ).toBe('not_applicable')
  })

  test('work pending only after the last voice (or in a call nobody spoke in) is not dead air, and says so', () => {
    const result = deadAirCheck(
      input({
        experience: {
          work_pending_ms: [{ start_ms: 0, end_ms: 9_000 }],
          assistant_heard_ms: [],
          caller_voiced_ms: [],
        },
      }),
    )
    expect(result.status).toBe('not_applicable')
    expect(result.reason).toMatch(/before the call’s last voice/)
  })
})

test('the four checks come in one list the checks extension accepts', () => {
  const checks = callerExperienceChecks(input({ expects_verification: true, executions: [wrong] }))
  expect(checks.map((item) => item.id)).toEqual([
    'no_false_confirmation',
    'verification_after_implausible_result',
    'progress_statement_when_slow',
    'dead_air_while_pending',
  ])
  expect(checksExtension.schema.safeParse(checks).success).toBe(true)
})
