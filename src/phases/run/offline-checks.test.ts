// The offline self-checks: each fails on the shape the issue reproduced (a spoken stage direction, a second booking
// for one request, a call ending mid-utterance) and holds on a call that did none of these.
import { describe, expect, it } from 'vitest'
import type { ToolExecution } from '../../observability/observation.ts'
import type { PlannedUtterance } from './offline-caller.ts'
import {
  duplicateMutationViolations,
  isMutatingTool,
  offlineRunViolations,
  offlineSelfCheckFailure,
} from './offline-checks.ts'

const agenda = [
  {
    id: 'bye',
    action: 'finish' as const,
    commitment: 'Confirm the booking, then end the call.',
    trigger_condition: 'once the outcome has been confirmed or clearly refused',
    completion_condition: 'done',
    completion_basis: 'expression' as const,
    wording_policy: 'adapt_to_live_context' as const,
    facts: [],
    response_hint: '',
    after: [],
    required: true,
  },
]
const utterance = (text: string, action: PlannedUtterance['action'] = 'SPEAK'): PlannedUtterance => ({
  text,
  action,
  startMs: 0,
  endMs: 1_000,
})
const booking = (call_id: string, args: Record<string, unknown>, status = 'completed'): ToolExecution =>
  ({ call_id, name: 'create_reservation', arguments: args, status, output: {}, completed_at_ms: 0 }) as never

describe('offline self-checks', () => {
  it('a caller line that says a commitment or trigger breaks the simulation', () => {
    const plan = [
      utterance('Hi, book a table.', 'OPENING'),
      utterance('Confirm the booking, then end the call.'),
    ]
    expect(
      offlineRunViolations(
        { plan, assistant_cut_off: false, termination_reason: 'response_completed' },
        agenda,
        [],
      ),
    ).toEqual([
      'the caller said the agenda\'s stage direction "Confirm the booking, then end the call." ("Confirm the booking, then end the call.")',
    ])
  })

  it('the same mutating call twice is a duplicate, whatever the argument order; reads are not', () => {
    const args = { guest_name: 'Rivera', date: '2026-08-14', time: '19:00', party_size: 2 }
    const reordered = { party_size: 2, time: '19:00', date: '2026-08-14', guest_name: 'Rivera' }
    expect(duplicateMutationViolations([booking('a', args), booking('b', reordered)])).toEqual([
      `the mutating call create_reservation ${JSON.stringify({ date: '2026-08-14', guest_name: 'Rivera', party_size: 2, time: '19:00' })} was made 2 times (call ids a, b)`,
    ])
    expect(
      duplicateMutationViolations([booking('a', args), booking('b', { ...args, party_size: 4 })]),
    ).toEqual([])
    const check = { ...booking('c', args), name: 'check_availability' }
    expect(duplicateMutationViolations([check, { ...check, call_id: 'd' }])).toEqual([])
    expect(isMutatingTool('cancel_reservation')).toBe(true)
    expect(isMutatingTool('check_availability')).toBe(false)
  })

  it('a call that ended mid-utterance breaks it; a clean call holds and has no failure', () => {
    const plan = [utterance('Hi, book a table.', 'OPENING'), utterance('Thanks, goodbye.', 'STOP')]
    expect(
      offlineRunViolations(
        { plan, assistant_cut_off: true, termination_reason: 'assistant_cut_off' },
        agenda,
        [],
      ),
    ).toEqual(['the call ended while the assistant was still talking'])
    const clean = offlineRunViolations(
      { plan, assistant_cut_off: false, termination_reason: 'response_completed' },
      agenda,
      [],
    )
    expect(clean).toEqual([])
    expect(offlineSelfCheckFailure(clean)).toBeNull()
    expect(offlineSelfCheckFailure(['x'])).toEqual({
      stage: 'caller_simulation',
      message: 'The offline RUN simulation did not hold, so this call proves nothing: x.',
    })
  })

  it('a double call by the author’s own offline rules names the rules and their `when`; the bundled one does not', () => {
    const args = { guest_name: 'Rivera', party_size: 2 }
    const twice = [booking('a', args), booking('b', args)]
    const own = duplicateMutationViolations(twice, 'maple-pharmacy')
    expect(own).toEqual([
      `assistant "maple-pharmacy"'s offline rules made the mutating call create_reservation {"guest_name":"Rivera","party_size":2} 2 times (call ids a, b): a rule's \`when\` probably also matches the caller's follow-up, so narrow it (a function \`when\` gets \`earlier\`, the call so far). Offline runs stand in for your model with these rules, so this is about the rules, not your model`,
    ])
    expect(duplicateMutationViolations(twice)).toEqual([
      'the mutating call create_reservation {"guest_name":"Rivera","party_size":2} was made 2 times (call ids a, b)',
    ])
  })

  it('a call cut off at the duration limit names max_duration_seconds; any other cut-off keeps its sentence', () => {
    const plan = [utterance('Hi, book a table.', 'OPENING')]
    const context = { ownRulesOf: null, maxDurationSeconds: 6 }
    expect(
      offlineRunViolations(
        { plan, assistant_cut_off: true, termination_reason: 'duration_limit' },
        agenda,
        [],
        context,
      ),
    ).toEqual([
      'the call ended while the assistant was still talking: it reached simulation.max_duration_seconds (6 s), which cut the assistant off mid-answer; raise simulation.max_duration_seconds so the call can end normally',
    ])
    expect(
      offlineRunViolations(
        { plan, assistant_cut_off: true, termination_reason: 'assistant_cut_off' },
        agenda,
        [],
        context,
      ),
    ).toEqual(['the call ended while the assistant was still talking'])
    // How the call ended is required (tsc type-checks this file): a caller that left it out would get the plain
    // sentence for a call the duration limit cut.
    // @ts-expect-error termination_reason is missing
    offlineRunViolations({ plan, assistant_cut_off: true }, agenda, [], context)
  })
})
