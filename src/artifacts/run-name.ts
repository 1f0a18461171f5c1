// Run names identify a run's folder: `<label>_<YYYYmmdd_HHMMSS>_<mmm>Z`, always in UTC so names sort by
// time wherever the run happened. The label becomes part of a folder name, so it must be artifact-safe.
import { RunLabelError } from './errors.ts'
import { artifactIdProblem } from './ids.ts'

const pad = (value: number, width: number) => String(value).padStart(width, '0')

/** The UTC timestamp part of a run name, e.g. "20260818_000000_000Z". */
export function runTimestamp(now: Date): string {
  if (Number.isNaN(now.getTime())) throw new Error('Run name needs a valid date; got an invalid Date')
  const date = `${pad(now.getUTCFullYear(), 4)}${pad(now.getUTCMonth() + 1, 2)}${pad(now.getUTCDate(), 2)}`
  const time = `${pad(now.getUTCHours(), 2)}${pad(now.getUTCMinutes(), 2)}${pad(now.getUTCSeconds(), 2)}`
  return `${date}_${time}_${pad(now.getUTCMilliseconds(), 3)}Z`
}

/** `<label>_<YYYYmmdd_HHMMSS>_<mmm>Z`. Throws when the label cannot name a folder. */
export function runName(label: string, now: Date): string {
  const problem = artifactIdProblem(label)
  if (problem !== null) throw new RunLabelError(label, `Run label ${JSON.stringify(label)} ${problem}`)
  return `${label}_${runTimestamp(now)}`
}

/**
 * The label used when none is given: `<phase>_<live|offline>`, as in the reference toolkit, and `<phase>_replay` for
 * a replay of cassettes (ours), so a replayed run is never read as a live one from its folder name.
 */
export function defaultRunLabel(phase: string, mode: 'live' | 'offline' | 'replay'): string {
  return `${phase}_${mode}`
}
