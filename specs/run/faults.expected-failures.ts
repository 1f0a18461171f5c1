// What the offline behaviour mishandles on purpose under the bundled fault scenarios' own profiles: declared once,
// read by faults.spec.ts (each row's one verdict) and by the bundled cassette round trip, whose live rehearsal must
// fail exactly where offline does (src/cassettes/bundled-round-trip.integration.test.ts).
import type { ExpectedScenarioFailure } from '../../src/vitest/expected-failures.ts'

export const FAULT_EXPECTED_FAILURES: readonly ExpectedScenarioFailure[] = [
  // A timed-out booking taken as made: "you're all set" for a table nobody booked.
  { scenario: 'run_fault_002_booking_timeout', checks: ['no_false_confirmation'] },
  // A plausibly wrong availability answer relied on without a second check.
  { scenario: 'run_fault_004_availability_wrong_data', checks: ['verification_after_implausible_result'] },
]
