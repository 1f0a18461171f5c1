// Which profile a scenario runs under, and where a profile cannot be injected.
import { describe, expect, test } from 'vitest'
import { checkBundledProfiles, FAULT_PROFILES } from '../config/fault-profiles.ts'
import { faultReachProblem, unreachableFaultRules } from './reach.ts'
import { expectsVerification, scenarioFaultChoice, scenarioFaultProfile } from './scenario-profile.ts'

const tagged = (...tags: string[]) => ({ id: 's1', tags })

describe('the profile of a scenario', () => {
  test('the setting wins, "none" turns every profile off, else the scenario tag, else clean', () => {
    const scenario = tagged('booking', 'fault_profile:tool-timeout')
    expect(scenarioFaultProfile(scenario, null)).toEqual({
      profile: FAULT_PROFILES['tool-timeout'],
      source: 'scenario',
    })
    expect(scenarioFaultProfile(scenario, 'backend-down')).toEqual({
      profile: FAULT_PROFILES['backend-down'],
      source: 'setting',
    })
    expect(scenarioFaultProfile(scenario, 'none')).toBeNull()
    expect(scenarioFaultProfile(tagged('booking'), null)).toBeNull()
  })

  test('an unknown or doubled tag names the scenario, the tag and the known profiles', () => {
    expect(() => scenarioFaultProfile(tagged('fault_profile:haunted'), null)).toThrow(
      /Scenario s1: tag "fault_profile:haunted" names an unknown fault profile "haunted"; known profiles: "backend-flaky"/,
    )
    expect(() =>
      scenarioFaultProfile(tagged('fault_profile:tool-empty', 'fault_profile:tool-slow'), null),
    ).toThrow(/Scenario s1: tags name 2 fault profiles/)
  })

  test('expects_verification is a tag', () => {
    expect(expectsVerification(tagged('expects_verification'))).toBe(true)
    expect(expectsVerification(tagged())).toBe(false)
  })

  test('every bundled profile satisfies the schema', () => {
    expect(() => checkBundledProfiles()).not.toThrow()
  })
})

describe('where a profile can be injected', () => {
  const offline = {
    architecture: 'responses',
    planes: ['tool', 'backend'],
    mode: 'offline',
    phase: 'run',
  } as const

  test('in-process architectures offline take every plane; RUN takes every transport fault', () => {
    for (const profile of Object.values(FAULT_PROFILES))
      expect(unreachableFaultRules(profile, offline)).toEqual([])
  })

  test('live Responses delegation refuses backend rules: the service calls its backend model', () => {
    const problem = faultReachProblem(FAULT_PROFILES['delegation-stall'], {
      ...offline,
      mode: 'live',
      planes: ['tool'],
    })
    expect(problem).toMatch(
      /Fault profile "delegation-stall" cannot be injected.*rule 1 \(backend_stall\): live, GPT-Live calls the Responses backend model itself/,
    )
    expect(problem).toMatch(/LIVE_EVALS_FAULTS=none/)
  })

  test('a remote client assistant refuses tool and backend rules, and takes transport ones', () => {
    const remote = {
      architecture: 'client',
      planes: [],
      note: 'its tools and backend run in the separately deployed client assistant',
      mode: 'live',
      phase: 'run',
    } as const
    expect(unreachableFaultRules(FAULT_PROFILES['backend-down'], remote)).toEqual([
      expect.stringMatching(
        /rule 1 \(error\): its tools and backend run in the separately deployed client assistant/,
      ),
    ])
    expect(unreachableFaultRules(FAULT_PROFILES['uplink-loss'], remote)).toEqual([])
  })

  test('CRAWL and WALK refuse stream_cut and jitter (no caller listens), and take uplink loss', () => {
    for (const phase of ['crawl', 'walk'] as const) {
      expect(unreachableFaultRules(FAULT_PROFILES['transport-cut'], { ...offline, phase })).toEqual([
        expect.stringMatching(/has no caller listening to the assistant; use it in RUN/),
      ])
      expect(unreachableFaultRules(FAULT_PROFILES['uplink-loss'], { ...offline, phase })).toEqual([])
    }
  })
})

test("a bad tag becomes the scenario's own input_setup problem, not a crash of the run", () => {
  expect(scenarioFaultChoice(tagged('fault_profile:haunted'), null)).toEqual({
    faults: null,
    faultsProblem: expect.stringMatching(
      /Scenario s1: tag "fault_profile:haunted" names an unknown fault profile/,
    ),
  })
  expect(scenarioFaultChoice(tagged('fault_profile:tool-empty'), null).faultsProblem).toBeNull()
})
