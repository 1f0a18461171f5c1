// Repeated trials as Vitest tests. With `execution.trials` k > 1, scenarioSuite registers k tests per scenario,
// one per trial, each carrying its trial in the test's meta at collection: the reporter then keys the test's row
// by (scenario id, trial) and sets the row's `trial` extension, so the console and results.json count the same
// tests (one verdict per trial). The name ends in `[trial i/k]`, so `-t "trial 2/3"` selects one trial of every
// scenario and `-t restaurant_001` all trials of one. With k = 1 nothing changes: one test, no trial anywhere.
//
// Decisions:
// - Sharding splits scenarios before their trials are registered, so a scenario's trials always run in one shard
//   (and its pass^k can be read from that shard's own results file).
// - A trial's artifacts go to `<scenario id>__t<i>` (see trialArtifactName in src/reporting/row-key.ts).

/** The trial a test runs, as its meta carries it; absent on the tests of a run without trials. */
export interface TrialOfTest {
  /** 1-based. */
  trial: number
  /** The run's trial count (k). */
  of: number
}

declare module 'vitest' {
  interface TaskMeta {
    liveEvalsTrial?: TrialOfTest
  }
}

/** The trials each scenario registers: none to tell apart (null) when the run has one trial. */
export function trialsToRegister(trials: number): (TrialOfTest | null)[] {
  if (!Number.isInteger(trials) || trials < 1) {
    throw new RangeError(`execution.trials must be an integer of 1 or more (got ${trials})`)
  }
  if (trials === 1) return [null]
  return Array.from({ length: trials }, (_, index) => ({ trial: index + 1, of: trials }))
}

/** The test's name: the scenario's title, then `[trial i/k]` in a trials run. */
export function trialTestName(title: string, trial: TrialOfTest | null): string {
  return trial === null ? title : `${title} [trial ${trial.trial}/${trial.of}]`
}
