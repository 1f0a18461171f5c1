// Delegation-backend faults: client delegation's backend wrapped, and the hooks the offline server asks.
import { describe, expect, test } from 'vitest'
import type { ApplicationBackend } from '../assistants/client/backend/application-backend.ts'
import type { FaultProfile } from '../config/fault-profiles.ts'
import { BackendUnavailableError, delegationFaultsForServer, FaultyBackend } from './backend.ts'
import { SessionFaults } from './session.ts'

const handoff = { task: 'Resolve the request.', transcript_srt: '', follow_up: false }
const answering: ApplicationBackend = { run: async () => 'A table is available.', close: async () => {} }
const faultsOf = (rules: FaultProfile['rules']) =>
  new SessionFaults({ name: 'p', seed: 2, rules }, 'scenario')

describe('FaultyBackend (client delegation)', () => {
  test('backend_error: the delegation fails as an unreachable backend would, and is recorded', async () => {
    const faults = faultsOf([{ kind: 'backend_error', rate: 1, calls: [0] }])
    faults.useClock(() => 1_234)
    const backend = new FaultyBackend(answering, faults)
    await expect(backend.run(handoff, () => {})).rejects.toThrow(BackendUnavailableError)
    // calls: [0] only: the second delegation is answered.
    await expect(backend.run(handoff, () => {})).resolves.toBe('A table is available.')
    expect(faults.events()).toEqual([
      { kind: 'backend_error', plane: 'backend', target: 'delegation', index: 0, at_ms: 1_234 },
    ])
  })

  test('backend_stall: the answer comes once the stall passed on the call clock', async () => {
    const faults = faultsOf([{ kind: 'backend_stall', rate: 1, delay_s: 2 }])
    faults.timers.useVirtualClock(0)
    let answer: string | null = null
    const running = new FaultyBackend(answering, faults)
      .run(handoff, () => {})
      .then((text) => {
        answer = text
      })
    await Promise.resolve()
    faults.timers.advanceTo(1_900)
    await Promise.resolve()
    expect(answer).toBeNull()
    faults.timers.advanceTo(2_000)
    await running
    expect(answer).toBe('A table is available.')
    expect(faults.events()[0]).toMatchObject({ kind: 'backend_stall', delay_ms: 2_000 })
  })
})

describe('the offline server hooks (Responses delegation backend model)', () => {
  test('each delegation draws its position; a hit is answered and recorded with its delegation id', () => {
    const faults = faultsOf([
      { kind: 'backend_stall', rate: 1, calls: [1], delay_s: 4 },
      { kind: 'backend_error', rate: 1, calls: [2] },
    ])
    const hooks = delegationFaultsForServer(faults)
    expect(hooks.delegation('item_1', 100)).toBeNull()
    expect(hooks.delegation('item_2', 5_000)).toEqual({ kind: 'backend_stall', delayMs: 4_000 })
    expect(hooks.delegation('item_3', 9_000)).toEqual({ kind: 'backend_error' })
    expect(faults.events()).toEqual([
      expect.objectContaining({ kind: 'backend_stall', index: 1, delegation_id: 'item_2', at_ms: 5_000 }),
      expect.objectContaining({ kind: 'backend_error', index: 2, delegation_id: 'item_3', at_ms: 9_000 }),
    ])
  })
})
