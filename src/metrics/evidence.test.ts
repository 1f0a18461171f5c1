import { describe, expect, test } from 'vitest'
import { countPair, optionalCount, parseCountPair } from './counts.ts'
import { buildEvidenceMetrics, delegationAccuracy, type EvidenceSources, toolAccuracy } from './evidence.ts'
import { expectedToolCount } from './golden.ts'

function sources(overrides: { task?: object; efficiency?: object; golden?: object } = {}): EvidenceSources {
  return {
    task: { prohibited_tool_call_count: 0, ...overrides.task },
    efficiency: {
      unique_tool_invocation_count: 2,
      matched_tool_call_count: 2,
      delegation_count: 1,
      ...overrides.efficiency,
    },
    golden: {
      tool_calls: [{ count: 1 }, { count: 1 }],
      delegations: 1,
      delegation_policy: 'required',
      ...overrides.golden,
    },
  }
}

describe('optionalCount', () => {
  test('only non-negative integers are known; zero is known', () => {
    expect(optionalCount(0)).toBe(0)
    expect(optionalCount(3)).toBe(3)
  })
  test('bools, floats, strings, negatives, NaN, null and undefined are unknown', () => {
    for (const value of [true, false, 1.5, '2', -1, Number.NaN, null, undefined, Number.POSITIVE_INFINITY]) {
      expect(optionalCount(value)).toBeNull()
    }
  })
})

describe('count pairs', () => {
  test('"actual/expected" when both are known, else null', () => {
    expect(countPair(0, 0)).toBe('0/0')
    expect(countPair(2, 1)).toBe('2/1')
    expect(countPair(null, 1)).toBeNull()
    expect(countPair(1, true)).toBeNull()
  })
  test('parses "a/b" and {actual, expected}; everything malformed is null', () => {
    expect(parseCountPair('1/2')).toEqual({ actual: 1, expected: 2 })
    expect(parseCountPair({ actual: 0, expected: 3 })).toEqual({ actual: 0, expected: 3 })
    for (const bad of [
      '-1/2',
      '0.0/0',
      'True/0',
      '0/',
      '0/0/0',
      { actual: 1 },
      { actual: -1, expected: 1 },
      { actual: true, expected: 0 },
      { actual: 1.5, expected: 1 },
      null,
      3,
    ]) {
      expect(parseCountPair(bad)).toBeNull()
    }
  })
})

describe('expectedToolCount', () => {
  test('sums counts, a missing count is 1', () => {
    expect(expectedToolCount({ tool_calls: [{ count: 2 }, {}] })).toBe(3)
    expect(expectedToolCount({ tool_calls: [] })).toBe(0)
  })
  test('an explicit null or invalid count, or a missing list, makes it unknown', () => {
    expect(expectedToolCount({ tool_calls: [{ count: 1 }, { count: null }] })).toBeNull()
    expect(expectedToolCount({ tool_calls: [{ count: true }] })).toBeNull()
    expect(expectedToolCount({})).toBeNull()
  })
})

describe('toolAccuracy', () => {
  test('min(matched, expected, actual) / max(expected, actual), rounded to 4 places', () => {
    expect(toolAccuracy(sources())).toBe(1)
    expect(toolAccuracy(sources({ efficiency: { unique_tool_invocation_count: 3 } }))).toBe(0.6667)
    expect(toolAccuracy(sources({ efficiency: { matched_tool_call_count: 1 } }))).toBe(0.5)
  })
  test('a known prohibited call gives 0 even when everything else is unknown', () => {
    expect(toolAccuracy({ task: { prohibited_tool_call_count: 1 }, efficiency: {}, golden: {} })).toBe(0)
  })
  test('an absent prohibited count means none', () => {
    expect(toolAccuracy({ ...sources(), task: {} })).toBe(1)
  })
  test('an explicit null prohibited count can never yield a passing score', () => {
    expect(toolAccuracy(sources({ task: { prohibited_tool_call_count: null } }))).toBeNull()
    // A score of 0 is not passing, so it stays.
    const nothingMatched = sources({
      task: { prohibited_tool_call_count: null },
      efficiency: { matched_tool_call_count: 0 },
    })
    expect(toolAccuracy(nothingMatched)).toBe(0)
    const bothZero = sources({
      task: { prohibited_tool_call_count: null },
      efficiency: { unique_tool_invocation_count: 0 },
      golden: { tool_calls: [] },
    })
    expect(toolAccuracy(bothZero)).toBeNull()
  })
  test('unknown expected or actual gives null', () => {
    expect(toolAccuracy(sources({ golden: { tool_calls: [{ count: null }] } }))).toBeNull()
    expect(toolAccuracy(sources({ efficiency: { unique_tool_invocation_count: null } }))).toBeNull()
    expect(toolAccuracy(sources({ efficiency: { unique_tool_invocation_count: 1.0001 } }))).toBeNull()
  })
  test('zero actual or zero expected: 1 when both are zero, else 0', () => {
    expect(
      toolAccuracy(sources({ efficiency: { unique_tool_invocation_count: 0 }, golden: { tool_calls: [] } })),
    ).toBe(1)
    expect(toolAccuracy(sources({ efficiency: { unique_tool_invocation_count: 0 } }))).toBe(0)
    expect(toolAccuracy(sources({ golden: { tool_calls: [] } }))).toBe(0)
  })
  test('matched falls back to the task count only when the efficiency key is absent', () => {
    const efficiency = { unique_tool_invocation_count: 2, delegation_count: 1 }
    expect(toolAccuracy({ ...sources(), efficiency, task: { matched_tool_call_count: 1 } })).toBe(0.5)
    // Present but null in efficiency: the task count is not used, coverage is.
    const explicitNull = { ...efficiency, matched_tool_call_count: null }
    expect(
      toolAccuracy({ ...sources(), efficiency: explicitNull, task: { matched_tool_call_count: 2 } }),
    ).toBeNull()
    expect(
      toolAccuracy({
        ...sources(),
        efficiency: explicitNull,
        task: { matched_tool_call_count: 2, tool_call_coverage: 0.5 },
      }),
    ).toBe(0.5)
  })
  test('coverage fallback must be a finite number in 0..1, rounded half to even', () => {
    const efficiency = { unique_tool_invocation_count: 2 }
    for (const coverage of [1.5, -0.1, Number.NaN, Number.POSITIVE_INFINITY, '0.5', true]) {
      expect(toolAccuracy({ ...sources(), efficiency, task: { tool_call_coverage: coverage } })).toBeNull()
    }
    // 0.25 × 2 = 0.5 rounds to 0 (even), so nothing matched.
    expect(toolAccuracy({ ...sources(), efficiency, task: { tool_call_coverage: 0.25 } })).toBe(0)
    // 0.75 × 2 = 1.5 rounds to 2 (even).
    expect(toolAccuracy({ ...sources(), efficiency, task: { tool_call_coverage: 0.75 } })).toBe(1)
  })
})

describe('delegationAccuracy', () => {
  test('required needs a delegation, forbidden needs none, optional accepts both', () => {
    expect(delegationAccuracy(sources())).toBe(1)
    expect(delegationAccuracy(sources({ efficiency: { delegation_count: 0 } }))).toBe(0)
    expect(delegationAccuracy(sources({ golden: { delegation_policy: 'forbidden' } }))).toBe(0)
    expect(
      delegationAccuracy(
        sources({ golden: { delegation_policy: 'forbidden' }, efficiency: { delegation_count: 0 } }),
      ),
    ).toBe(1)
    expect(
      delegationAccuracy(
        sources({ golden: { delegation_policy: 'optional' }, efficiency: { delegation_count: 0 } }),
      ),
    ).toBe(1)
  })
  test('an exact count mismatch is not a failure', () => {
    expect(delegationAccuracy(sources({ efficiency: { delegation_count: 3 } }))).toBe(1)
  })
  test('task flags make the policy known and required/forbidden', () => {
    const golden = { delegation_policy: undefined, delegations: null }
    expect(
      delegationAccuracy({
        ...sources({ golden }),
        task: { delegation_required: true },
        efficiency: { delegation_count: 0 },
      }),
    ).toBe(0)
    expect(delegationAccuracy({ ...sources({ golden }), task: { delegation_prohibited: true } })).toBe(0)
  })
  test('with no policy at all, golden delegations > 0 implies required', () => {
    const noPolicy = { delegation_policy: null }
    expect(
      delegationAccuracy(
        sources({ golden: { ...noPolicy, delegations: 2 }, efficiency: { delegation_count: 0 } }),
      ),
    ).toBe(0)
    expect(
      delegationAccuracy(
        sources({ golden: { ...noPolicy, delegations: 0 }, efficiency: { delegation_count: 0 } }),
      ),
    ).toBe(1)
    expect(delegationAccuracy(sources({ golden: { ...noPolicy, delegations: null } }))).toBeNull()
  })
  test('an invalid policy value is unknown, even with golden delegations', () => {
    for (const policy of [[], {}, 'unsupported', 0, false]) {
      expect(
        delegationAccuracy(sources({ golden: { delegation_policy: policy, delegations: 1 } })),
      ).toBeNull()
    }
  })
  test('an unknown actual count is null; delegation_observed never stands in for it', () => {
    const efficiency = { unique_tool_invocation_count: 2, delegation_count: null }
    expect(delegationAccuracy({ ...sources(), efficiency, task: { delegation_observed: true } })).toBeNull()
    expect(delegationAccuracy(sources({ efficiency: { delegation_count: true } }))).toBeNull()
  })
})

describe('buildEvidenceMetrics', () => {
  test('count pairs for tool calls, delegations and turns', () => {
    const metrics = buildEvidenceMetrics(
      sources({ efficiency: { total_turns: 5 }, golden: { total_turns: 6 } }),
    )
    expect(metrics).toMatchObject({ tool_calls: '2/2', delegations: '1/1', turns: '5/6' })
  })
  test('a boolean delegation_observed never fabricates a delegation count', () => {
    const efficiency = { unique_tool_invocation_count: 2, delegation_observed: true }
    expect(buildEvidenceMetrics({ ...sources(), efficiency }).delegations).toBeNull()
  })
  test('overrides can refine or withhold a computable score', () => {
    expect(buildEvidenceMetrics(sources(), { tool_accuracy: 0.5 }).tool_accuracy).toBe(0.5)
    expect(buildEvidenceMetrics(sources(), { delegation_accuracy: null }).delegation_accuracy).toBeNull()
    expect(buildEvidenceMetrics(sources(), { tool_accuracy: 7 }).tool_accuracy).toBeNull()
    for (const notAScore of [Number.NaN, -0.5, '1', true]) {
      expect(buildEvidenceMetrics(sources(), { tool_accuracy: notAScore }).tool_accuracy).toBeNull()
    }
  })
  test('overrides never fill in an unknown score', () => {
    const unknown = sources({ efficiency: { unique_tool_invocation_count: null, delegation_count: null } })
    expect(buildEvidenceMetrics(unknown, { tool_accuracy: 1, delegation_accuracy: 1 })).toMatchObject({
      tool_accuracy: null,
      delegation_accuracy: null,
    })
  })
})
