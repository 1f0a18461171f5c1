// With no TOML at all an offline run is on the virtual clock, two scenarios at a time, and its first line says so;
// real-time pacing is what a user asks for (audio.real_time = true), live is always real time, and a replay plays
// its real-time recordings on the virtual clock.
import { describe, expect, test } from 'vitest'
import { loadPhaseConfig } from '../../config/index.ts'
import { runClockOf, runStartLine } from './run-line.ts'

const noToml = (phase: 'crawl' | 'walk' | 'run', env: Record<string, string> = {}) =>
  loadPhaseConfig(phase, null, { env, cwd: '/' })

describe('the built-in defaults of an offline run', () => {
  test.each(['crawl', 'walk', 'run'] as const)('%s: virtual clock, concurrency 2', (phase) => {
    const settings = noToml(phase)
    expect(settings.execution.mode).toBe('offline')
    expect(settings.execution.concurrency).toBe(2)
    expect(runClockOf(settings)).toBe('virtual')
  })

  test('the first line names the phase, the mode, the clock, the concurrency and the architectures', () => {
    expect(runStartLine(noToml('crawl'), ['responses', 'client'])).toBe(
      'live-evals: CRAWL offline on the virtual clock, 2 scenarios at a time (execution.concurrency); ' +
        'architectures responses, client',
    )
  })

  test('real time offline is what a user asks for, and the line says how to undo it', () => {
    const settings = loadPhaseConfig('walk', null, {
      env: {},
      cwd: '/',
      overrides: { audio: { real_time: true }, execution: { concurrency: 1 } },
    })
    expect(runClockOf(settings)).toBe('real_time')
    expect(runStartLine(settings, ['client'])).toBe(
      'live-evals: WALK offline in real time (audio.real_time = true; false runs on the virtual clock), ' +
        '1 scenario at a time (execution.concurrency); architecture client',
    )
  })

  test('live always paces in real time', () => {
    const settings = noToml('run', { LIVE_EVALS_MODE: 'live' })
    expect(runClockOf(settings)).toBe('real_time')
    expect(runStartLine(settings, ['responses'])).toBe(
      'live-evals: RUN live in real time, 2 scenarios at a time (execution.concurrency); architecture responses',
    )
  })

  test('a replay plays its real-time recordings on the virtual clock', () => {
    const settings = noToml('run', { LIVE_EVALS_MODE: 'replay' })
    expect(runClockOf(settings)).toBe('virtual')
    expect(runStartLine(settings, ['responses'])).toBe(
      'live-evals: RUN replay on the virtual clock, 2 scenarios at a time (execution.concurrency); ' +
        'architecture responses',
    )
  })
})
