// The first line a live-evals run prints (from the global setup, before any worker starts): the phase, the mode,
// the media clock and how many scenarios run at once, so a run that is slower than expected says why before it
// spends the time. The clock follows the drivers: live always paces in real time; a replay (execution.mode
// "replay", the live code path answered by cassettes) plays its real-time recordings on the virtual clock; offline,
// CRAWL and WALK use the virtual clock unless audio.real_time asks for real-time pacing, and RUN always uses it.
import type { PhaseSettings } from '../../config/index.ts'

export type RunClock = 'virtual' | 'real_time'

export function runClockOf(settings: PhaseSettings): RunClock {
  if (settings.replay.enabled) return 'virtual'
  if (settings.execution.mode === 'live') return 'real_time'
  if (settings.phase === 'run') return 'virtual'
  return settings.audio.real_time ? 'real_time' : 'virtual'
}

export function runStartLine(settings: PhaseSettings, architectures: readonly string[]): string {
  const clock = runClockOf(settings)
  const clockText =
    clock === 'virtual'
      ? 'on the virtual clock'
      : settings.execution.mode === 'live'
        ? 'in real time'
        : 'in real time (audio.real_time = true; false runs on the virtual clock)'
  const { concurrency } = settings.execution
  const atOnce = `${concurrency} scenario${concurrency === 1 ? '' : 's'} at a time (execution.concurrency)`
  return (
    `live-evals: ${settings.phase.toUpperCase()} ${settings.replay.enabled ? 'replay' : settings.execution.mode} ${clockText}, ${atOnce}; ` +
    `architecture${architectures.length === 1 ? '' : 's'} ${architectures.join(', ')}`
  )
}
