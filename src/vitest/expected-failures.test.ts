// Which declared expected failure applies to a test, and which fault scenarios a run leaves out: a failure declared
// for a fault scenario holds while the fault profile it was declared under is in force (its own fault_profile tag
// unless the declaration names one); with faults off such a scenario is skipped, saying why.
import { describe, expect, test } from 'vitest'
import {
  checkExpectedFailures,
  type ExpectedScenarioFailure,
  expectedFailureFor,
  faultScenarioSkipNote,
} from './expected-failures.ts'

const timeoutScenario = { id: 'booking_timeout', tags: ['faults', 'fault_profile:tool-timeout'] }
const cleanScenario = { id: 'booking', tags: ['booking'] }
const declared: ExpectedScenarioFailure[] = [
  { scenario: 'booking_timeout', checks: ['no_false_confirmation'] },
  { scenario: 'booking', checks: ['application_state'], faultProfile: 'backend-down' },
]
const applying = (scenario: { id: string; tags: string[] }, faults: string | null) =>
  expectedFailureFor(declared, { scenario, architecture: 'client', mode: 'offline', faults })

describe('expected failures under fault profiles', () => {
  test("a fault scenario's declaration holds under its own profile only", () => {
    expect(applying(timeoutScenario, null)?.checks).toEqual(['no_false_confirmation'])
    expect(applying(timeoutScenario, 'tool-timeout')?.checks).toEqual(['no_false_confirmation'])
    // Faults off, or another profile in force: the scenario's row must simply pass.
    expect(applying(timeoutScenario, 'none')).toBeNull()
    expect(applying(timeoutScenario, 'backend-down')).toBeNull()
  })

  test('a declaration naming a profile holds while that profile is in force', () => {
    expect(applying(cleanScenario, 'backend-down')?.checks).toEqual(['application_state'])
    expect(applying(cleanScenario, null)).toBeNull()
    expect(applying(cleanScenario, 'tool-timeout')).toBeNull()
  })

  test('a declaration for a scenario without faults holds whatever the setting, as before', () => {
    const plain = [{ scenario: 'booking', checks: ['outcome_state'] as [string] }]
    for (const faults of [null, 'none', 'tool-slow']) {
      expect(
        expectedFailureFor(plain, {
          scenario: cleanScenario,
          architecture: 'responses',
          mode: 'offline',
          faults,
        }),
      ).not.toBeNull()
    }
  })

  test('an unknown faultProfile is refused naming the declaration and the known profiles', () => {
    expect(() => checkExpectedFailures([{ scenario: 's', checks: ['x'], faultProfile: 'haunted' }])).toThrow(
      /expectedFailures\[0\] \(scenario s\): faultProfile "haunted" is not a fault profile; known: "none", "backend-flaky"/,
    )
    expect(() => checkExpectedFailures(declared)).not.toThrow()
  })
})

describe('fault scenarios with faults off', () => {
  test('are skipped with a note naming the profile and the setting; nothing else is', () => {
    expect(faultScenarioSkipNote(timeoutScenario, 'none')).toMatch(
      /^booking_timeout is written for fault profile tool-timeout .*execution\.faults = "none" \(LIVE_EVALS_FAULTS\) turns it off/,
    )
    expect(faultScenarioSkipNote(timeoutScenario, null)).toBeNull()
    expect(faultScenarioSkipNote(timeoutScenario, 'backend-down')).toBeNull()
    expect(faultScenarioSkipNote(cleanScenario, 'none')).toBeNull()
  })
})
