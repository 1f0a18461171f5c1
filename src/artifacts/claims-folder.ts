// The folder inside a run folder where each test claims its (scenario id, trial) before running it
// (src/vitest/scenario-claim.ts; the first claim that finds it missing makes it). It is bookkeeping, not output: a
// run stopped before any scenario wrote anything removes it with its run folder, and it is hidden, so a listing of
// the run's output does not show it.
export const CLAIMS_FOLDER = '.claims'
