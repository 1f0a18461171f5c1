import { describe, expect, test } from 'vitest'
import { type FaultKind, faultPlane } from '../config/fault-profiles.ts'
import { row } from '../gate/gate.test-helpers.ts'
import { validateResultRow } from './result-item.ts'
import { passHatCurve, summarizeTrials } from './trials-summary.ts'

const trialsOf = (id: string, outcomes: string, latencies: number[] = []) =>
  [...outcomes].map((outcome, index) =>
    row({
      id,
      trial: index + 1,
      latencyMs: latencies[index] ?? 400,
      status: outcome === 'p' ? 'passed' : outcome === 'f' ? 'failed' : 'infrastructure_error',
    }),
  )

describe('summarizeTrials', () => {
  test('per scenario pass^1, pass^k at the run trial count and the curve; overall the mean over scenarios', () => {
    const summary = summarizeTrials([
      ...trialsOf('a', 'ppp'),
      ...trialsOf('b', 'pfp'),
      ...trialsOf('c', 'pi'),
    ])
    expect(summary?.k).toBe(3)
    expect(summary?.scenarios.map(({ metrics: _metrics, ...scenario }) => scenario)).toEqual([
      {
        scenario_id: 'a',
        trials: 3,
        passed: 3,
        infrastructure_errors: 0,
        pass_1: 1,
        pass_k: 1,
        pass_hat: [1, 1, 1],
      },
      // C(2,1)/C(3,1) = 2/3, C(2,2)/C(3,2) = 1/3, C(2,3)/C(3,3) = 0
      {
        scenario_id: 'b',
        trials: 3,
        passed: 2,
        infrastructure_errors: 0,
        pass_1: 2 / 3,
        pass_k: 0,
        pass_hat: [2 / 3, 1 / 3, 0],
      },
      // two trials cannot say anything about three: pass^3 unknown, not 0
      {
        scenario_id: 'c',
        trials: 2,
        passed: 1,
        infrastructure_errors: 1,
        pass_1: 0.5,
        pass_k: null,
        pass_hat: [0.5, 0],
      },
    ])
    expect(summary?.pass_1).toBeCloseTo((1 + 2 / 3 + 0.5) / 3, 12)
    expect(summary?.pass_k).toBe(0.5)
    expect(summary?.pass_k_scenarios).toBe(2)
  })

  test('the curve is the unbiased estimator at every j, hand-computed for 7 passes of 10', () => {
    const curve = passHatCurve(7, 10)
    // C(7,2)/C(10,2) = 21/45, C(7,4)/C(10,4) = 35/210, C(7,8)/C(10,8) = 0
    expect(curve[1]).toBeCloseTo(21 / 45, 12)
    expect(curve[3]).toBeCloseTo(35 / 210, 12)
    expect(curve[7]).toBe(0)
    expect(curve).toHaveLength(10)
  })

  test("each metric's spread per scenario and overall, leaving infrastructure rows out", () => {
    const summary = summarizeTrials([
      ...trialsOf('a', 'ppf', [300, 500, 700]),
      ...trialsOf('b', 'pi', [1000, 9999]),
    ])
    // a: 300, 500, 700 -> mean 500, stdev sqrt((200^2 + 0 + 200^2) / 2) = 200
    expect(summary?.scenarios[0]?.metrics.response_latency_ms).toEqual({
      n: 3,
      mean: 500,
      stdev: 200,
      min: 300,
      p50: 500,
      p90: 700,
      max: 700,
    })
    // b's infrastructure row measured nothing the spread may use: n = 1, no stdev
    expect(summary?.scenarios[1]?.metrics.response_latency_ms).toMatchObject({
      n: 1,
      mean: 1000,
      stdev: null,
    })
    expect(summary?.metrics.response_latency_ms).toMatchObject({ n: 4, min: 300, max: 1000 })
    // a metric nothing measured is n = 0 with nulls, never 0
    expect(summary?.metrics.semantic_quality).toMatchObject({ n: 0, mean: null, stdev: null })
  })

  test('a run without trial numbers is not a trials run, nor one that repeats nothing', () => {
    expect(summarizeTrials([row({ id: 'a' }), row({ id: 'b' })])).toBeNull()
    // A trials run filtered to one trial of each scenario (-t "trial 2/3") reads like the k = 1 run of its rows:
    // no "pass^1 …, pass^1 … with 1 trials".
    expect(summarizeTrials([row({ id: 'a', trial: 2 }), row({ id: 'b', trial: 2 })])).toBeNull()
    expect(summarizeTrials([row({ id: 'a', trial: 1 }), row({ id: 'a', trial: 2 })])).toMatchObject({ k: 2 })
  })
})

describe('pass^k per fault class', () => {
  /** The row with a fault record injecting these kinds. */
  const faulted = (base: ReturnType<typeof row>, classes: FaultKind[]) =>
    validateResultRow({
      ...base,
      observability: {
        ...base.observability,
        live_evals: {
          ...(base.observability?.live_evals ?? { version: '1.0' }),
          faults: {
            profile: 'p',
            seed: 1,
            source: 'scenario',
            injected: classes.map((kind) => ({
              kind,
              plane: faultPlane(kind),
              target: 't',
              index: 0,
              at_ms: null,
            })),
            classes,
          },
        },
      },
    })

  test('each class over the trials that injected it: per scenario C(c,k)/C(n,k), then the mean', () => {
    // Scenario a: timeout in all 3 trials, 2 passed. Scenario b: timeout and slow in 3 trials, all passed.
    const rows = [
      ...trialsOf('a', 'ppf').map((trial) => faulted(trial, ['timeout'])),
      ...trialsOf('b', 'ppp').map((trial) => faulted(trial, ['timeout', 'slow'])),
      ...trialsOf('c', 'pff'),
    ]
    const summary = summarizeTrials(rows)
    expect(summary?.fault_classes).toEqual([
      // a: pass^3 = 0 (2 of 3), b: pass^3 = 1; pass^1 = mean(2/3, 1).
      {
        class: 'timeout',
        scenarios: 2,
        trials: 6,
        passed: 5,
        pass_1: (2 / 3 + 1) / 2,
        pass_k: 0.5,
        pass_k_scenarios: 2,
      },
      { class: 'slow', scenarios: 1, trials: 3, passed: 3, pass_1: 1, pass_k: 1, pass_k_scenarios: 1 },
    ])
  })

  test('absent when no row ran under a fault profile', () => {
    expect(summarizeTrials([...trialsOf('a', 'pp'), ...trialsOf('b', 'pf')])).not.toHaveProperty(
      'fault_classes',
    )
  })
})
