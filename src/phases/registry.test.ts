// The two views of the phases: the main process plans with each phase's description (descriptions.ts), a worker
// runs its module (registry.ts, imported on demand). They must be the same phase, and an unknown name fails alike.
import { describe, expect, test } from 'vitest'
import type { Phase } from '../config/index.ts'
import { phaseDescription } from './descriptions.ts'
import { phaseModule } from './registry.ts'

const PHASES: readonly Phase[] = ['crawl', 'walk', 'run']

describe('the phase registry and the descriptions the main process plans with', () => {
  test.each(PHASES)('%s: the module a worker runs is the phase the main process described', async (phase) => {
    const description = phaseDescription(phase)
    const module = await phaseModule(phase)
    expect(module.phase).toBe(phase)
    expect(description.phase).toBe(phase)
    // The module is its description plus what only a worker needs: the same functions, not copies of them.
    expect(module.interaction).toBe(description.interaction)
    expect(module.configuration).toBe(description.configuration)
    expect(module.testTimeoutMs).toBe(description.testTimeoutMs)
    expect(typeof module.driver.open).toBe('function')
  })

  test('RUN is multi-turn and the single-turn phases are not', () => {
    expect(PHASES.map((phase) => phaseDescription(phase).interaction)).toEqual([
      'single_turn',
      'single_turn',
      'multi_turn',
    ])
  })

  test('a phase name that reached them unchecked is refused by both, naming the phases that exist', async () => {
    const unknown = 'sprint' as Phase
    const message = 'live-evals has no Vitest suite for the sprint phase yet (available: crawl, walk, run)'
    expect(() => phaseDescription(unknown)).toThrow(message)
    await expect(phaseModule(unknown)).rejects.toThrow(message)
  })
})
