// The run's closing line, `N passed, N failed`, which CI reads.
// A watch rerun that could not start (its settings or dataset saved broken, or its live check refused; see
// src/vitest/global-setup.ts) ran no scenario, and Vitest fails each of its spec files: its line says that it
// did not start and that nothing was written, since `0 passed, 0 failed` alone reads like a run that selected
// nothing. The counts stay at the front: every reader of the line (a script watching a watch process, our watch
// tests) still finds one `N passed, N failed` per run, and 0 and 0 are true. CI's `vitest run` never prints
// this: a run that cannot start ends the process with its problem before any reporter speaks.
// A spec file that failed before its scenarios ran (a dataset path with a typo) is said too: Vitest fails the run,
// and `1 passed, 0 failed` alone would read as a run that passed; its run's results.json is marked incomplete.
// So is a scenario test refused because another spec file ran its scenario first (reporters/duplicate-scenarios.ts).
import { refusedDuplicateCount } from './duplicate-scenarios.ts'
import type { FinishedScenarioTest } from './run-results.ts'

/**
 * The closing line of a run's tests; `notStarted` names the phases whose run did not start (their problem was
 * printed above it).
 */
export function runSummaryLine(
  tests: readonly FinishedScenarioTest[],
  notStarted: readonly string[],
  failedSpecFiles: readonly string[] = [],
): string {
  const passed = tests.filter((test) => test.state === 'passed').length
  const failed = tests.filter((test) => test.state === 'failed').length
  // A passed test whose row failed exactly as its spec declared (see src/vitest/verdict.ts) is counted, and said.
  const expected = tests.filter(
    (test) =>
      test.state === 'passed' && test.meta?.row?.observability?.live_evals?.expected_failure?.met === true,
  ).length
  return (
    `${passed} passed, ${failed} failed` +
    (expected === 0 ? '' : ` (${expected} of the passed failed as their spec declared)`) +
    notStartedNote(notStarted.map((phase) => phase.toUpperCase())) +
    failedSpecFilesNote(failedSpecFiles) +
    duplicatesNote(refusedDuplicateCount(tests))
  )
}

function duplicatesNote(refused: number): string {
  if (refused === 0) return ''
  const one = refused === 1
  return (
    `; ${refused} scenario test${one ? ' was' : 's were'} refused because another spec file ran ${one ? 'its' : 'their'} ` +
    'scenario first, so the results are marked incomplete'
  )
}

function failedSpecFilesNote(files: readonly string[]): string {
  if (files.length === 0) return ''
  const one = files.length === 1
  return (
    `; ${files.length} spec file${one ? '' : 's'} failed before ${one ? 'its' : 'their'} scenarios ran ` +
    `(${files.join(', ')}), so the results are marked incomplete`
  )
}

function notStartedNote(phases: readonly string[]): string {
  if (phases.length === 0) return ''
  if (phases.length === 1)
    return `; the ${phases[0]} run did not start (its problem is above), nothing of it was written`
  const named = `${phases.slice(0, -1).join(', ')} and ${phases.at(-1)}`
  return `; the ${named} runs did not start (their problems are above), nothing of them was written`
}
