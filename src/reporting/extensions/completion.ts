// Run extension `completion`: a run whose results are not the whole run. Present only when the results are partial:
// the run was stopped by SIGINT/SIGTERM or Ctrl-C (`interrupted`, written by the run as it stopped), killed before
// it could write anything (`killed`, rebuilt afterwards from its rows journal by `live-evals results`), or ended
// with spec files of its project that failed before their scenarios ran (`spec_files_failed`: a dataset path with
// a typo, an import that throws; Vitest fails the run, and the rows of the other spec files must not read as a
// whole run), or (1.2) with a scenario that two spec files evaluated into one run (`duplicate_scenarios`: the
// first to claim it ran it, the other's test was refused; which one wins is the workers' timing, so with two
// different assistants the rows would be a mix nobody chose). In a trials run (1.3) the rows are trials, so the
// marker also says how many trials were planned: 20 finished rows of 2 planned scenarios run 30 times each are 20 of
// 60 trials, not 20 of 2 scenarios. A run that ended by itself with every spec file
// loaded has no `completion` key, so its results.json stays the reference's shape. Readers that gate on results
// (src/gate) refuse a document carrying it unless told partial results are fine.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const completionExtension = defineExtensionFeature({
  name: 'completion',
  scope: 'run',
  version: '1.3',
  summary:
    'present only on partial results: how the run stopped (interrupted or killed), which spec files failed before their scenarios ran, or which scenarios two spec files evaluated (one refused), its finished rows, planned scenarios and (trials runs) planned trials',
  schema: z.strictObject({
    ending: z.enum(['interrupted', 'killed', 'spec_files_failed', 'duplicate_scenarios']),
    /** Rows: one per finished scenario, or in a trials run one per finished (scenario, trial). */
    finished_rows: z.number().int().min(0),
    /** The scenarios known to the run; those of a spec file that failed to load are unknown, so not counted. */
    planned_scenarios: z.number().int().min(0),
    /**
     * 1.3, in a trials run (execution.trials k > 1): the (scenario, trial) pairs planned, k per planned scenario.
     * Absent without trials, in documents of 1.2 and earlier, and where k is unknown (a journal written before).
     */
    planned_trials: z.number().int().min(0).optional(),
    /** 1.1, with `spec_files_failed`: each spec file (relative to the project root) and its error's first line. */
    failed_spec_files: z.array(z.strictObject({ file: z.string().min(1), error: z.string() })).optional(),
    /**
     * 1.2: each (scenario id, trial) a second spec file was refused, with the spec file whose row results.json holds
     * (null when its claim could not be read) and the refused one, relative to the project root. Present beside
     * either `duplicate_scenarios` or `spec_files_failed` (that ending wins: it is the larger gap).
     */
    duplicate_scenarios: z
      .array(
        z.strictObject({
          scenario_id: z.string().min(1),
          trial: z.number().int().min(1),
          ran_in: z.string().min(1).nullable(),
          refused_in: z.string().min(1),
        }),
      )
      .optional(),
  }),
})

export type RunCompletion = z.infer<typeof completionExtension.schema>

/**
 * Whether the marker is one a run writes at its own end (Vitest ended it, with spec files that failed to load or
 * duplicates refused): the run wrote every row it had. `interrupted` and `killed` mean it was stopped before its end.
 */
export function endedByItself(completion: RunCompletion): boolean {
  return completion.ending === 'spec_files_failed' || completion.ending === 'duplicate_scenarios'
}

/** One (scenario id, trial) a second spec file was refused, as `completion.duplicate_scenarios` lists it. */
export type DuplicateScenario = NonNullable<RunCompletion['duplicate_scenarios']>[number]

/** One spec file that failed before its scenarios ran, as `completion.failed_spec_files` lists it. */
export type FailedSpecFile = NonNullable<RunCompletion['failed_spec_files']>[number]

/** How a run can be stopped before its end, the larger gap first. */
export const STOPPED_ENDINGS = ['killed', 'interrupted'] as const

/** What a run is missing; a run with none of these is whole. */
export interface RunGaps {
  /** How it was stopped before its end; absent when it ended by itself. */
  stopped?: (typeof STOPPED_ENDINGS)[number] | undefined
  failedSpecFiles?: readonly FailedSpecFile[] | undefined
  duplicates?: readonly DuplicateScenario[] | undefined
  finishedRows: number
  /** The scenarios known to the run. */
  plannedScenarios: number
  /** The trials each scenario runs (execution.trials); absent or 1 without trials, null when unknown. */
  trialsPerScenario?: number | null | undefined
}

/**
 * The run's `completion` marker; undefined for a whole run. The larger gap names the ending (stopped early, then
 * spec files that failed to load, then refused duplicates), and every failed spec file and duplicate is listed
 * whatever the ending. The one builder of the marker: the reporter, the merge of shards and a rebuild all use it.
 */
export function runCompletion(gaps: RunGaps): RunCompletion | undefined {
  const failed = gaps.failedSpecFiles ?? []
  const duplicates = gaps.duplicates ?? []
  const ending =
    gaps.stopped ??
    (failed.length > 0 ? 'spec_files_failed' : duplicates.length > 0 ? 'duplicate_scenarios' : undefined)
  if (ending === undefined) return undefined
  const trials = gaps.trialsPerScenario ?? 1
  return {
    ending,
    finished_rows: gaps.finishedRows,
    planned_scenarios: gaps.plannedScenarios,
    ...(trials > 1 ? { planned_trials: gaps.plannedScenarios * trials } : {}),
    ...(failed.length === 0 ? {} : { failed_spec_files: [...failed] }),
    ...(duplicates.length === 0 ? {} : { duplicate_scenarios: [...duplicates] }),
  }
}

/**
 * What a run planned, in the words the gate and `live-evals results` use: scenarios (`5 planned scenarios`), or in a
 * trials run trials (`60 planned trials of 2 scenarios`), since then each row is one trial.
 */
export function plannedText(completion: Pick<RunCompletion, 'planned_scenarios' | 'planned_trials'>): string {
  const { planned_scenarios: scenarios, planned_trials: trials } = completion
  const plural = scenarios === 1 ? '' : 's'
  return trials === undefined
    ? `${scenarios} planned scenario${plural}`
    : `${trials} planned trial${trials === 1 ? '' : 's'} of ${scenarios} scenario${plural}`
}

/** How the console, the gate and the report name one refused duplicate. */
export function duplicateScenarioText({ scenario_id, trial, ran_in, refused_in }: DuplicateScenario): string {
  return `"${scenario_id}" trial ${trial} ran in ${ran_in ?? 'another spec file'}, refused in ${refused_in}`
}
