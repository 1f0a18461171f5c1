import { describe, expect, test } from 'vitest'
import { GateInputError } from './errors.ts'
import { DEFAULT_GATE_OPTIONS, evaluateGate, type GateOptions } from './evaluate.ts'
import { gateFile, row } from './gate.test-helpers.ts'
import { isToolTurn, latencySplit } from './latency.ts'

const options = (overrides: Partial<GateOptions> = {}): GateOptions => ({
  ...DEFAULT_GATE_OPTIONS,
  ...overrides,
})
const ids = (n: number, status: 'passed' | 'failed' = 'passed', from = 0) =>
  Array.from({ length: n }, (_, index) => row({ id: `s${String(index + from).padStart(2, '0')}`, status }))

describe('evaluateGate outcomes', () => {
  test('passes when every threshold holds, naming each check', () => {
    const report = evaluateGate(
      [gateFile(ids(10))],
      [],
      options({ minPassRate: 0.9, maxP95LatencyMs: 1_000 }),
    )
    expect(report.outcome).toBe('pass')
    expect(report.checks.map((check) => [check.name, check.outcome])).toEqual([
      ['min_pass_rate', 'pass'],
      ['max_p95_latency_ms', 'pass'],
    ])
  })
  test('fails a pass rate below the minimum, with the observed rate in the message', () => {
    const report = evaluateGate(
      [gateFile([...ids(8), ...ids(2, 'failed', 8)])],
      [],
      options({ minPassRate: 0.9 }),
    )
    expect(report.outcome).toBe('fail')
    expect(report.checks[0]).toMatchObject({ name: 'min_pass_rate', outcome: 'fail' })
    expect(report.checks[0]?.message).toContain('8/10 = 80.0%')
  })
  test('fails a P95 latency over the maximum, quoting n', () => {
    const rows = Array.from({ length: 20 }, (_, index) =>
      row({ id: `s${index}`, latencyMs: 100 * (index + 1) }),
    )
    const report = evaluateGate([gateFile(rows)], [], options({ maxP95LatencyMs: 1_500 }))
    expect(report.outcome).toBe('fail')
    // nearest rank: ceil(0.95 * 20) = 19th of 100..2000 = 1900
    expect(report.checks[0]?.message).toBe('P95 response latency 1900 ms over n=20 responses exceeds 1500 ms')
  })
  test('a RUN result (conversations of several responses) is judged on each conversation mean, and says so', () => {
    const conversation = (id: string, latencyMs: number) => {
      const built = row({ id, latencyMs })
      const audio = built.metrics.audio
      if (audio.response_opportunities === undefined) throw new Error('the builder measures opportunities')
      return {
        ...built,
        metrics: {
          ...built.metrics,
          // Three requests, three answers: the opportunity counts stay consistent.
          audio: {
            ...audio,
            response_opportunities: {
              ...audio.response_opportunities,
              caller_turn_count: 3,
              response_eligible_count: 3,
              response_total: 3,
              response_count: 3,
            },
          },
        },
      }
    }
    const rows = [conversation('a', 400), conversation('b', 900), conversation('c', 2_400)]
    const failing = evaluateGate([gateFile(rows)], [], options({ maxP95LatencyMs: 1_500 }))
    expect(failing.checks.find((check) => check.name === 'max_p95_latency_ms')).toEqual({
      name: 'max_p95_latency_ms',
      outcome: 'fail',
      message:
        "P95 of each conversation's mean response latency 2400 ms over n=3 conversations (9 answered responses; " +
        "results.json keeps only a conversation's mean) exceeds 1500 ms",
    })
    const passing = evaluateGate([gateFile(rows)], [], options({ maxP95LatencyMs: 2_500 }))
    expect(passing.checks.find((check) => check.name === 'max_p95_latency_ms')?.outcome).toBe('pass')
  })
  test('a latency threshold with no measured response is inconclusive, not a pass', () => {
    const report = evaluateGate(
      [gateFile([row({ id: 'a', latencyMs: null })])],
      [],
      options({ maxP95LatencyMs: 1_000 }),
    )
    expect(report.outcome).toBe('inconclusive')
  })
  test('infrastructure errors fail the gate and never count as passes', () => {
    const report = evaluateGate(
      [gateFile([...ids(9), row({ id: 'broken', status: 'infrastructure_error' })])],
      [],
      options(),
    )
    expect(report.outcome).toBe('fail')
    expect(report.checks[0]).toMatchObject({ name: 'infrastructure_errors', outcome: 'fail' })
    expect(report.checks[0]?.message).toContain('crawl/client broken at connection')
    expect(report.pass_rate).toMatchObject({ successes: 9, n: 10 })
  })
  test('a required scenario that is missing or failed fails the gate by name', () => {
    const missing = evaluateGate([gateFile(ids(3))], [], options({ required: ['s01', 'refund_policy'] }))
    expect(missing.outcome).toBe('fail')
    expect(missing.checks.map((check) => check.message)).toEqual([
      'required scenario refund_policy is missing from the results',
    ])
    const failed = evaluateGate(
      [gateFile([row({ id: 'r', status: 'failed' })])],
      [],
      options({ required: ['r'] }),
    )
    expect(failed.checks[0]?.message).toBe('required scenario r did not pass: crawl/client r failed')
  })
  test('the same row in two files fails as a duplicate; two architectures are not duplicates', () => {
    const duplicate = evaluateGate(
      [gateFile(ids(2), { source: 'a.json' }), gateFile(ids(2), { source: 'b.json' })],
      [],
      options(),
    )
    expect(duplicate.outcome).toBe('fail')
    expect(duplicate.checks[0]?.message).toContain('crawl/client s00 is in a.json and b.json')
    const architectures = evaluateGate(
      [gateFile(ids(2), { architecture: 'client' }), gateFile(ids(2), { architecture: 'responses' })],
      [],
      options({ minPassRate: 1 }),
    )
    expect(architectures.outcome).toBe('pass')
    expect(architectures.groups.map((group) => group.architecture)).toEqual(['client', 'responses'])
  })
  test('partial results are refused unless allowed', () => {
    const partial = gateFile(ids(2), { partial: 'the run was interrupted' })
    expect(() => evaluateGate([partial], [], options())).toThrow(GateInputError)
    expect(() => evaluateGate([partial], [], options())).toThrow('--allow-partial')
    expect(evaluateGate([partial], [], options({ allowPartial: true })).outcome).toBe('pass')
  })
  test('no results file at all is bad input', () => {
    expect(() => evaluateGate([], [], options())).toThrow(GateInputError)
  })
})

describe('repeated trials: the pass rate interval', () => {
  const trials = (id: string, passes: number, n: number) =>
    Array.from({ length: n }, (_, index) =>
      row({ id, trial: index + 1, status: index < passes ? 'passed' : 'failed' }),
    )
  /** `scenarios` scenarios of `k` trials each; the first `passing` pass every trial, the rest fail every one. */
  const suite = (scenarios: number, k: number, passing: number) =>
    Array.from({ length: scenarios }, (_, index) =>
      trials(`s${String(index).padStart(2, '0')}`, index < passing ? k : 0, k),
    ).flat()

  test('inconclusive when the 95% interval over scenarios contains the threshold', () => {
    // 8 of 10 scenarios pass both trials: Wilson(8, 10) = [0.490, 0.943] contains 0.8
    const report = evaluateGate([gateFile(suite(10, 2, 8))], [], options({ minPassRate: 0.8 }))
    expect(report.repeated_trials).toBe(true)
    expect(report.outcome).toBe('inconclusive')
    expect(report.checks[0]?.message).toContain('over 10 scenarios')
    expect(report.checks[0]?.message).toContain('run more trials')
    expect(report.scenario_pass_rate).toMatchObject({ successes: 8, n: 10, estimate: 0.8 })
    expect(report.pass_rate).toMatchObject({ successes: 16, n: 20 }) // the rows, as the CLI line counts them
  })
  test('the interval counts scenarios, not trials: identical trials of one scenario prove nothing more', () => {
    // 50 passing trials of one scenario are one observation: Wilson(1, 1) lower 0.207 < 0.9 (rows would say 0.929)
    const one = evaluateGate([gateFile(trials('a', 50, 50))], [], options({ minPassRate: 0.9 }))
    expect(one.outcome).toBe('inconclusive')
    expect(one.scenario_pass_rate?.n).toBe(1)
    // The same suite at k = 1 and at k = 5 gets the same interval.
    const once = evaluateGate(
      [gateFile(suite(40, 1, 40))],
      [],
      options({ minPassRate: 0.9, passRateInterval: true }),
    )
    const five = evaluateGate([gateFile(suite(40, 5, 40))], [], options({ minPassRate: 0.9 }))
    expect(five.scenario_pass_rate?.lower).toBeCloseTo(once.pass_rate.lower as number, 12)
    expect(five.outcome).toBe('pass') // 40/40 scenarios: lower 0.912 >= 0.9
  })
  test('passes on the lower bound, fails when even the upper bound is short, and counts a split scenario as its fraction', () => {
    expect(evaluateGate([gateFile(suite(40, 2, 40))], [], options({ minPassRate: 0.9 })).outcome).toBe('pass')
    // 2 of 10 scenarios: upper 0.510 < 0.9
    expect(evaluateGate([gateFile(suite(10, 3, 2))], [], options({ minPassRate: 0.9 })).outcome).toBe('fail')
    const split = evaluateGate([gateFile([...trials('a', 1, 2), ...trials('b', 2, 2)])], [], options())
    expect(split.scenario_pass_rate).toMatchObject({ successes: 1.5, n: 2, estimate: 0.75 })
  })
  test('a definite failure outranks an inconclusive check', () => {
    const report = evaluateGate(
      [gateFile([...suite(10, 2, 8), row({ id: 'b', status: 'infrastructure_error' })])],
      [],
      options({ minPassRate: 0.7 }),
    )
    expect(report.outcome).toBe('fail')
  })
  test('a `-t "trial 2/3"` subset is judged like the single-trial run of the same rows', () => {
    const ids5 = ['a', 'b', 'c', 'd', 'e']
    const subset = ids5.map((id) => row({ id, trial: 2, status: id === 'e' ? 'failed' : 'passed' }))
    const single = ids5.map((id) => row({ id, status: id === 'e' ? 'failed' : 'passed' }))
    const judged = evaluateGate([gateFile(subset)], [], options({ minPassRate: 0.8 }))
    const reference = evaluateGate([gateFile(single)], [], options({ minPassRate: 0.8 }))
    expect(judged.repeated_trials).toBe(false)
    expect(judged.outcome).toBe('pass') // 4/5 = 0.8 meets 0.8, compared directly as at k = 1
    expect(judged.checks).toEqual(reference.checks)
    expect(judged.scenario_pass_rate).toBeNull()
    expect(judged.files[0]?.trials).toBeNull() // no "pass^1 …, pass^1 … with 1 trials"
    const repeated = evaluateGate([gateFile(trials('a', 2, 3))], [], options())
    // c = 2 of n = 3 at k = 3: pass^1 = 2/3, pass^3 = C(2,3)/C(3,3) = 0
    expect(repeated.files[0]?.trials).toEqual({ k: 3, pass_1: 2 / 3, pass_k: 0 })
    expect(evaluateGate([gateFile(ids(2))], [], options()).files[0]?.trials).toBeNull()
  })
  test('--pass-rate-interval judges single-trial runs on the interval too', () => {
    const report = evaluateGate(
      [gateFile(ids(10))],
      [],
      options({ minPassRate: 0.9, passRateInterval: true }),
    )
    // 10/10: lower 0.7225 < 0.9 <= upper 1
    expect(report.outcome).toBe('inconclusive')
  })
})

describe('against a baseline', () => {
  test('names regressions and recoveries, and fails on regressions when asked', () => {
    const baseline = gateFile([row({ id: 'a' }), row({ id: 'b', status: 'failed' }), row({ id: 'c' })])
    const current = gateFile([row({ id: 'a', status: 'failed' }), row({ id: 'b' }), row({ id: 'c' })])
    const listed = evaluateGate([current], [baseline], options())
    expect(listed.outcome).toBe('pass')
    expect(listed.comparison?.regressed.map((key) => key.scenario_id)).toEqual(['a'])
    expect(listed.comparison?.recovered.map((key) => key.scenario_id)).toEqual(['b'])
    const gated = evaluateGate([current], [baseline], options({ noRegressions: true }))
    expect(gated.outcome).toBe('fail')
    expect(gated.checks[0]).toMatchObject({ name: 'no_regressions', outcome: 'fail' })
    expect(gated.checks[0]?.message).toContain('crawl/client a')
  })
  test('a scenario in the baseline but missing now fails the gate', () => {
    const report = evaluateGate(
      [gateFile([row({ id: 'a' })])],
      [gateFile([row({ id: 'a' }), row({ id: 'gone' })])],
      options(),
    )
    expect(report.outcome).toBe('fail')
    expect(report.checks[0]).toMatchObject({ name: 'missing_scenarios', outcome: 'fail' })
    expect(report.checks[0]?.message).toContain('gone')
  })
  test('per-metric deltas count improved and regressed rows, pairing only measured values', () => {
    const baseline = gateFile([
      row({ id: 'a', latencyMs: 500, toolAccuracy: 1 }),
      row({ id: 'b', latencyMs: 500, toolAccuracy: 0.5 }),
      row({ id: 'c', latencyMs: 500, toolAccuracy: null }),
    ])
    const current = gateFile([
      row({ id: 'a', latencyMs: 300, toolAccuracy: 0.5 }),
      row({ id: 'b', latencyMs: 900, toolAccuracy: 1 }),
      row({ id: 'c', latencyMs: 500, toolAccuracy: 1 }),
    ])
    const report = evaluateGate([current], [baseline], options())
    const latency = report.comparison?.metrics.find((metric) => metric.metric === 'response_latency_ms')
    expect(latency).toMatchObject({ n: 3, improved: 1, regressed: 1, unchanged: 1, baseline_mean: 500 })
    // (300 + 900 + 500) / 3 - 500
    expect(latency?.delta).toBeCloseTo(200 / 3, 9)
    const accuracy = report.comparison?.metrics.find((metric) => metric.metric === 'tool_accuracy')
    // c has no baseline accuracy: not paired, not counted as 0
    expect(accuracy).toMatchObject({ n: 2, improved: 1, regressed: 1, delta: 0 })
  })
  test('a baseline holding one row twice is bad input', () => {
    expect(() =>
      evaluateGate(
        [gateFile([row({ id: 'a' })])],
        [gateFile([row({ id: 'a' })], { source: 'x' }), gateFile([row({ id: 'a' })], { source: 'y' })],
        options(),
      ),
    ).toThrow('the baseline holds a row twice')
  })
})

describe('latency split', () => {
  test('a tool turn is one with a delegation or a tool call', () => {
    expect(isToolTurn({ delegations: 0, tool_calls: 0 })).toBe(false)
    expect(isToolTurn({ delegations: 1, tool_calls: 0 })).toBe(true)
    expect(isToolTurn({ delegations: 0, tool_calls: 2 })).toBe(true)
  })
  test('responses split by tool work and counted against the named bands', () => {
    const split = latencySplit([
      row({ id: 'a', tools: 0, latencyMs: 250 }),
      row({ id: 'b', tools: 0, latencyMs: 900 }),
      row({ id: 'c', tools: 0, latencyMs: 2_500 }),
      row({ id: 'd', tools: 1, latencyMs: 2_800 }),
      row({ id: 'e', status: 'infrastructure_error' }),
    ])
    expect(split.conversational.n).toBe(3)
    expect(split.tool.n).toBe(1)
    expect(split.conversational_bands.map((band) => [band.band, band.within])).toEqual([
      ['human', 1],
      ['comfortable', 2],
      ['acceptable', 2],
    ])
    expect(split.tool_band).toMatchObject({ band: 'tool turns', within: 1, n: 1 })
  })
})
