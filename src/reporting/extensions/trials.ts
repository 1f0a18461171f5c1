// Run extension `trials`: what repeating each scenario k times showed. Per scenario and over the run: pass^1 (the
// plain pass rate), pass^k with the unbiased estimator C(c,k)/C(n,k) at k = the run's trial count, the whole
// pass^j curve for j = 1..n, and the spread of every row metric over the trials. Present only when the rows carry
// trial numbers (a trials run); computed from the rows whenever a results document is built (see
// ../trials-summary.ts), so a merged or rebuilt document says the same as the run's own. The reference's
// `summary` stays counts only.

import { z } from 'zod'
import { FAULT_KINDS } from '../../config/fault-profiles.ts'
import { defineExtensionFeature } from './define.ts'

const ratio = z.number().min(0).max(1)

/** One metric's values over repeated trials; every statistic is null when nothing was measured (n = 0). */
export const MetricSpreadSchema = z.strictObject({
  n: z.number().int().min(0),
  mean: z.number().nullable(),
  /** Sample standard deviation; null below two measured values. */
  stdev: z.number().min(0).nullable(),
  min: z.number().nullable(),
  p50: z.number().nullable(),
  p90: z.number().nullable(),
  max: z.number().nullable(),
})

const ScenarioTrialsSchema = z.strictObject({
  scenario_id: z.string().min(1),
  /** Trials that produced a row (n of the estimator). */
  trials: z.number().int().min(1),
  /** Trials that passed (c); failures and infrastructure errors are trials that did not pass. */
  passed: z.number().int().min(0),
  infrastructure_errors: z.number().int().min(0),
  pass_1: ratio,
  /** pass^k at the run's k; null when this scenario ran fewer than k trials (unknown, not 0). */
  pass_k: ratio.nullable(),
  /** pass^j for j = 1..trials: `pass_hat[j - 1]`. */
  pass_hat: z.array(ratio).min(1),
  /** Each row metric over this scenario's graded trials (infrastructure rows left out), by metric name. */
  metrics: z.record(z.string(), MetricSpreadSchema),
})

/**
 * One fault class (a fault kind, issue 22) over the trials that injected it: per scenario, pass^k over its trials
 * that had this class, then means over those scenarios as for the whole run.
 */
const FaultClassTrialsSchema = z.strictObject({
  class: z.enum(FAULT_KINDS),
  /** Scenarios with at least one trial that injected this class. */
  scenarios: z.number().int().min(1),
  /** Trials that injected it, and how many of them passed. */
  trials: z.number().int().min(1),
  passed: z.number().int().min(0),
  pass_1: ratio,
  /** Mean pass^k over the scenarios with k trials of this class; null when none has (unknown, not 0). */
  pass_k: ratio.nullable(),
  pass_k_scenarios: z.number().int().min(0),
})

export const trialsExtension = defineExtensionFeature({
  name: 'trials',
  scope: 'run',
  version: '1.0',
  summary:
    'repeated trials: per scenario and overall pass^1, pass^k (C(c,k)/C(n,k)), the pass^j curve, each metric’s spread, and pass^k per fault class',
  schema: z.strictObject({
    /** The k of pass^k: the most trials any scenario ran. */
    k: z.number().int().min(1),
    /** Means over scenarios, so a scenario that ran more trials does not weigh more. */
    pass_1: ratio.nullable(),
    pass_k: ratio.nullable(),
    /** How many scenarios pass_k averages (those that ran k trials). */
    pass_k_scenarios: z.number().int().min(0),
    scenarios: z.array(ScenarioTrialsSchema),
    /** Each row metric over every graded row of the run, by metric name. */
    metrics: z.record(z.string(), MetricSpreadSchema),
    /** pass^k per fault class, when rows ran under a fault profile (row extension `faults`); absent otherwise. */
    fault_classes: z.array(FaultClassTrialsSchema).optional(),
  }),
})

export type RunTrials = z.infer<typeof trialsExtension.schema>
export type ScenarioTrials = RunTrials['scenarios'][number]
export type FaultClassTrials = NonNullable<RunTrials['fault_classes']>[number]
