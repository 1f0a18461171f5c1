import { describe, expect, it } from 'vitest'
import { ToolRuntime } from '../../runtime/tool-runtime.ts'
import { renderSrt } from '../delegation/srt.ts'
import { RestaurantTools } from '../tools/restaurant-tools.ts'
import { DELEGATED_TASK, type ObservationEvent } from './application-backend.ts'
import { backendUsageOfEvents } from './observed-usage.ts'
import { OfflineApplicationBackend, restaurantOfflineBackend } from './offline-backend.ts'
import { runtimeToolCallback } from './tool-callback.ts'

const handoff = (lines: Array<['USER' | 'ASSISTANT', string]>, followUp = false) => ({
  task: DELEGATED_TASK,
  follow_up: followUp,
  transcript_srt: renderSrt(
    lines.map(([role, text], index) => ({ role, text, startMs: index * 1_000, endMs: index * 1_000 + 900 })),
  ),
})

function restaurant(initialState: Record<string, unknown> = {}, authorizedContext = '') {
  const runtime = new ToolRuntime(new RestaurantTools({ initialState }))
  const backend = restaurantOfflineBackend({
    authorizedContext,
    initialState,
    callTool: runtimeToolCallback(runtime),
  })
  return { runtime, backend }
}

describe('the offline client backend', () => {
  it('runs the inferred tool on the scenario executor and answers with the final answer', async () => {
    const { runtime, backend } = restaurant()
    const observed: ObservationEvent[] = []
    const answer = await backend.run(
      handoff([['USER', 'Is a table for 4 available on August 7 at 7 p.m.?']]),
      (event) => observed.push(event),
    )
    expect(answer).toBe('A table for 4 is available on 2026-08-07 at 19:00. No reservation has been made.')
    expect(runtime.executions()).toEqual([
      expect.objectContaining({ call_id: 'call_offline_1', name: 'check_availability', status: 'completed' }),
    ])
    expect(observed.map((event) => event.type)).toEqual([
      'tool.called',
      'tool.completed',
      'response.completed',
    ])
    expect(observed[1]).toMatchObject({ call_id: 'call_offline_1', output: { ok: true, available: true } })
  })

  it('reports each answer as a completed response with its estimated usage, tool output read included', async () => {
    const { backend } = restaurant()
    const observed: ObservationEvent[] = []
    await backend.run(handoff([['USER', 'Where can I park?']]), (event) => observed.push(event))
    await backend.run(
      handoff([['USER', 'Is a table for 4 available on August 7 at 7 p.m.?']], true),
      (event) => observed.push(event),
    )
    const usages = backendUsageOfEvents(observed)
    expect(usages).toHaveLength(2)
    for (const usage of usages) {
      expect(usage?.total_tokens).toBe((usage?.input_tokens ?? 0) + (usage?.output_tokens ?? 0))
      expect(usage?.output_tokens).toBeGreaterThan(0)
    }
    // The second answer read the tool's output as well as the handoff.
    expect(usages[1]?.input_tokens).toBeGreaterThan(usages[0]?.input_tokens ?? 0)
  })

  it('answers directly, running nothing, when no tool applies', async () => {
    const { runtime, backend } = restaurant()
    const answer = await backend.run(handoff([['USER', 'Where can I park?']]), () => {})
    expect(answer).toBe('Complimentary parking is available in the adjacent restaurant lot.')
    expect(runtime.executions()).toEqual([])
  })

  it('acts on what the caller said after the assistant last spoke, with earlier turns as context', async () => {
    const { runtime, backend } = restaurant()
    await backend.run(handoff([['USER', 'I want to book a table under Rivera.']]), () => {})
    const answer = await backend.run(
      handoff(
        [
          ['ASSISTANT', 'What date, time and party size?'],
          ['USER', 'August 7 at 6:30 p.m. for 2.'],
        ],
        true,
      ),
      () => {},
    )
    expect(answer).toBe('Your reservation for Rivera and 2 guests is confirmed on 2026-08-07 at 18:30.')
    expect(runtime.snapshot()).toMatchObject({
      reservations: [expect.objectContaining({ guest_name: 'Rivera' })],
    })
  })

  it('uses the authorized context it was built with (authorized cancellation ids)', async () => {
    const { runtime, backend } = restaurant({
      authorized_reservation_ids: ['R-100'],
      reservations: [{ reservation_id: 'R-100', cancelled: false }],
    })
    const answer = await backend.run(handoff([['USER', 'Cancel R-200. Correction: cancel R-100.']]), () => {})
    expect(answer).toBe('Reservation R-100 has been cancelled.')
    expect(runtime.executions()[0]).toMatchObject({
      name: 'cancel_reservation',
      arguments: { reservation_id: 'R-100' },
    })
  })

  it('builds the behaviour from the authorized context and hands it the earlier turns of its own memory', async () => {
    const contexts: string[] = []
    const earlierTurns: unknown[] = []
    const backend = new OfflineApplicationBackend({
      authorizedContext: 'summary: guest Rivera',
      callTool: async () => ({ ok: true }),
      behaviourFor: (context) => {
        contexts.push(context)
        return {
          inferToolCall: () => null,
          directAnswer: (text, earlier) => {
            earlierTurns.push(earlier)
            return `heard ${text}`
          },
          finalAnswer: () => '',
        }
      },
    })
    expect(await backend.run(handoff([['USER', 'first']]), () => {})).toBe('heard first')
    expect(
      await backend.run(
        handoff(
          [
            ['ASSISTANT', 'ok'],
            ['USER', 'second'],
          ],
          true,
        ),
        () => {},
      ),
    ).toBe('heard second')
    expect(contexts).toEqual(['summary: guest Rivera', 'summary: guest Rivera'])
    expect(earlierTurns).toEqual([
      [],
      [
        { role: 'user', text: 'first' },
        { role: 'assistant', text: 'ok' },
      ],
    ])
  })

  it('keeps a booking asked for in an earlier delegation open until the details are complete, and makes it once', async () => {
    const { runtime, backend } = restaurant()
    const turns: Array<Array<['USER' | 'ASSISTANT', string]>> = [
      [['USER', 'Can I book a table on August 18 at 6:30 p.m. for three?']],
      [
        ['ASSISTANT', 'What name should I put on the reservation?'],
        ['USER', 'Sure, put it under Okafor.'],
      ],
      [
        ['ASSISTANT', 'Your reservation for Okafor and 3 guests is confirmed on 2026-08-18 at 18:30.'],
        ['USER', 'Perfect, that works for us.'],
      ],
    ]
    const answers: string[] = []
    for (const [index, lines] of turns.entries())
      answers.push(await backend.run(handoff(lines, index > 0), () => {}))
    expect(answers).toEqual([
      'What name should I put on the reservation?',
      'Your reservation for Okafor and 3 guests is confirmed on 2026-08-18 at 18:30.',
      'Is there anything else I can help you with?',
    ])
    expect(runtime.executions().map((execution) => execution.name)).toEqual(['create_reservation'])
    expect(runtime.snapshot()).toMatchObject({
      reservations: [
        expect.objectContaining({ reservation_id: 'R-001', guest_name: 'Okafor', party_size: 3 }),
      ],
    })
  })

  it('refuses to run after close', async () => {
    const { backend } = restaurant()
    await backend.close()
    await expect(backend.run(handoff([['USER', 'hi']]), () => {})).rejects.toThrow(/closed/)
  })
})
