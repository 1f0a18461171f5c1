// Expected failures a spec declares (scenarioSuite's expectedFailures), and the fault scenarios a run without
// faults leaves out. A failure declared for a fault scenario is what the assistant does under that fault: it holds
// only while the fault profile it was declared under is in force (the declaration's faultProfile, else the
// scenario's own fault_profile tag). Under another profile, or with faults off, the declaration does not apply
// and the test is an ordinary one: its row must pass (src/vitest/verdict.ts keeps the one verdict either way).
// With execution.faults = "none", a scenario written for a fault profile has lost its premise: its expectation
// (nothing booked, the caller told it failed) is the outcome under that fault, so graded without it the row
// would fail or pass for reasons that say nothing about the assistant. It is skipped, its note saying why.
import { FAULT_SETTING_VALUES, NO_FAULTS } from '../config/fault-profiles.ts'
import { scenarioFaultChoice, taggedFaultProfileName } from '../faults/scenario-profile.ts'
import type { ScenarioTestContext } from './scenario-context.ts'
import type { AssistantArchitecture as ArchitectureName } from './settings.ts'
import { failedRequiredChecks } from './verdict.ts'

export interface ExpectedScenarioFailure {
  scenario: string
  /** Required check ids (the reference's or ours) that must fail the row, and no other. */
  checks: readonly [string, ...string[]]
  /** Only in these architectures; default all. */
  architectures?: readonly ArchitectureName[]
  /** `offline` (default): what an offline behaviour does on purpose; `any`: live too. */
  mode?: 'offline' | 'any'
  /**
   * Only while the scenario runs under this fault profile (`"none"`: only without faults). Default: the profile
   * the scenario's own `fault_profile:<name>` tag names; a scenario without one: whatever it runs under.
   */
  faultProfile?: string
}

interface TestChoice {
  scenario: { id: string; tags: readonly string[] }
  architecture: ArchitectureName
  /** The run's execution mode (`offline`, `live`, `replay`). */
  mode: string
  /** execution.faults: a profile name, "none", or null (the scenarios' own tags decide). */
  faults: string | null
}

/** Refuses a declaration naming a fault profile that does not exist, naming it and the known ones. */
export function checkExpectedFailures(declared: readonly ExpectedScenarioFailure[]): void {
  for (const [index, failure] of declared.entries()) {
    const profile = failure.faultProfile
    if (profile === undefined || (FAULT_SETTING_VALUES as readonly string[]).includes(profile)) continue
    throw new Error(
      `scenarioSuite expectedFailures[${index}] (scenario ${failure.scenario}): faultProfile ${JSON.stringify(profile)} ` +
        `is not a fault profile; known: ${FAULT_SETTING_VALUES.map((name) => `"${name}"`).join(', ')}`,
    )
  }
}

/** The declared failure for one test, or null (then its row must pass). */
export function expectedFailureFor(
  declared: readonly ExpectedScenarioFailure[],
  test: TestChoice,
): ExpectedScenarioFailure | null {
  // A tag naming no profile is reported by the run (its scenario fails at input_setup); here it is no profile.
  const inForce = scenarioFaultChoice(test.scenario, test.faults).faults?.profile.name ?? NO_FAULTS
  return (
    declared.find((failure) => {
      const declaredUnder = failure.faultProfile ?? taggedFaultProfileName(test.scenario)
      return (
        failure.scenario === test.scenario.id &&
        (failure.architectures === undefined || failure.architectures.includes(test.architecture)) &&
        ((failure.mode ?? 'offline') === 'any' || test.mode === 'offline') &&
        (declaredUnder === null || declaredUnder === inForce)
      )
    }) ?? null
  )
}

/** Why a run with faults off skips this scenario, or null when it runs. */
export function faultScenarioSkipNote(
  scenario: { id: string; tags: readonly string[] },
  faults: string | null,
): string | null {
  const own = taggedFaultProfileName(scenario)
  if (faults !== NO_FAULTS || own === null) return null
  return (
    `${scenario.id} is written for fault profile ${own} (its expectation is the outcome under that fault); ` +
    `execution.faults = "none" (LIVE_EVALS_FAULTS) turns it off, so the scenario is skipped`
  )
}

/** The body of an expected-failure test: the row must fail on exactly the declared required checks. */
export function expectedFailureBody(checks: readonly string[]) {
  return ({ liveSession, expect }: ScenarioTestContext): void => {
    expect(
      failedRequiredChecks(liveSession.row).sort(),
      `${liveSession.scenarioId} must fail on exactly ${[...checks].sort().join(', ')}`,
    ).toEqual([...checks].sort())
  }
}
