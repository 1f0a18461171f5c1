// The bundled fault scenarios (issue 22): restaurant conversations under seeded fault profiles, each scenario naming
// its own with a `fault_profile:<name>` tag (execution.faults / LIVE_EVALS_FAULTS overrides it; "none" turns it
// off). The offline behaviour handles some faults well and some badly on purpose, so the caller-experience checks
// are shown failing and passing. The ones it mishandles are declared here: the row stays `failed` in results.json
// (with `expected_failure.met: true`), and the test passes only when it failed on exactly the declared checks.
import { scenarioSuite } from '../../src/vitest/suite.ts'

await scenarioSuite({
  phase: 'run',
  dataset: '../../scenarios/run/faults.json',
  expectedFailures: [
    // A timed-out booking taken as made: "you're all set" for a table nobody booked.
    { scenario: 'run_fault_002_booking_timeout', checks: ['no_false_confirmation'] },
    // A plausibly wrong availability answer relied on without a second check.
    { scenario: 'run_fault_004_availability_wrong_data', checks: ['verification_after_implausible_result'] },
  ],
})
