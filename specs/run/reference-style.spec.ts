// RUN conversations written the way the reference toolkit writes them: goodbyes (`finish` items) without a
// response hint, answers and corrections the caller must phrase from its facts, a refusal pressed with "please make
// an exception", an interrupted alternative, a caller who accepts and says goodbye. Offline, they must pass for the
// right reasons; the offline self-checks (src/phases/run/offline-checks.ts) fail any that do not.
import { scenarioSuite } from '../../src/vitest/suite.ts'

await scenarioSuite({ phase: 'run', dataset: '../../scenarios/run/reference-style.json' })
